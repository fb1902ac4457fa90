import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  retryWebhookDelivery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
} from "../../services/contract/webhooks";
import { route } from "./route";

const WEBHOOK = { id: { notFound: "Webhook not found" } };
const tag = "webhooks";

export const webhookRoutes = [
  route({ operationId: "createWebhook", method: "POST", path: "/webhooks", op: createWebhook, tag }),
  route({ operationId: "listWebhooks", method: "GET", path: "/webhooks", op: listWebhooks, list: true, tag }),
  route({ operationId: "getWebhook", method: "GET", path: "/webhooks/:id", op: getWebhook, params: WEBHOOK, tag }),
  route({
    operationId: "updateWebhook",
    method: "PATCH",
    path: "/webhooks/:id",
    op: updateWebhook,
    params: WEBHOOK,
    tag,
  }),
  route({
    operationId: "deleteWebhook",
    method: "DELETE",
    path: "/webhooks/:id",
    op: deleteWebhook,
    params: WEBHOOK,
    tag,
  }),
  route({
    operationId: "rotateWebhookSecret",
    method: "POST",
    path: "/webhooks/:id/rotate-secret",
    op: rotateWebhookSecret,
    params: WEBHOOK,
    tag,
  }),
  route({
    operationId: "testWebhook",
    method: "POST",
    path: "/webhooks/:id/test",
    op: testWebhook,
    params: WEBHOOK,
    tag,
  }),
  route({
    operationId: "listWebhookDeliveries",
    method: "GET",
    path: "/webhooks/:id/deliveries",
    op: listWebhookDeliveries,
    params: WEBHOOK,
    list: true,
    tag,
  }),
  route({
    operationId: "retryWebhookDelivery",
    method: "POST",
    path: "/webhooks/:id/deliveries/:deliveryId/retry",
    op: retryWebhookDelivery,
    params: { ...WEBHOOK, deliveryId: { notFound: "Delivery not found", field: "delivery_id" } },
    tag,
  }),
];
