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
} from "../../../services/contract/webhooks";
import { call, type GraphQLContext } from "../context";
import { knownId, toInput } from "../args";
import type { Args } from "./shared";

const webhookId = (id: string) => knownId(id, "Webhook");

export const webhookResolvers = {
  Query: {
    webhooks: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, listWebhooks, toInput(args)),
    webhook: (_: unknown, { id }: Args, ctx: GraphQLContext) => call(ctx, getWebhook, { id: webhookId(id) }),
    webhookDeliveries: (_: unknown, { id, ...args }: Args, ctx: GraphQLContext) =>
      call(ctx, listWebhookDeliveries, toInput(args, { id: webhookId(id) })),
  },
  Mutation: {
    createWebhook: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, createWebhook, toInput(args)),
    updateWebhook: (_: unknown, { id, ...args }: Args, ctx: GraphQLContext) =>
      call(ctx, updateWebhook, toInput(args, { id: webhookId(id) })),
    deleteWebhook: (_: unknown, { id }: Args, ctx: GraphQLContext) => call(ctx, deleteWebhook, { id: webhookId(id) }),
    rotateWebhookSecret: (_: unknown, { id }: Args, ctx: GraphQLContext) =>
      call(ctx, rotateWebhookSecret, { id: webhookId(id) }),
    testWebhook: (_: unknown, { id }: Args, ctx: GraphQLContext) => call(ctx, testWebhook, { id: webhookId(id) }),
    retryWebhookDelivery: (_: unknown, { id, deliveryId }: Args, ctx: GraphQLContext) =>
      call(ctx, retryWebhookDelivery, { id: webhookId(id), delivery_id: knownId(deliveryId, "Delivery") }),
  },
  /** A created or rotated endpoint is the Webhook plus its secret; `webhook` is the same object seen as one. */
  CreateWebhookPayload: { webhook: (p: unknown) => p },
};
