import { restRoutes } from "../../gateway/rest/routes";
import { pathFieldsOf, type RestRoute } from "../../gateway/rest/route";
import { unique, type Ids } from "./ids";

/**
 * A minimal valid input of every REST route's operation (the path params' fields included), built from ids.
 * The contract gives the shape; this table gives the ids and the few required values a schema cannot guess.
 * `rest-calls` is checked against `restRoutes` (an entry for every operationId, each valid by the operation's
 * own validator), so a route added without an entry fails the security test.
 */
export const REST_INPUTS: Record<string, (ids: Ids) => Record<string, unknown>> = {
  createKey: (ids) => ({ name: "security", scopes: ["memories:read"], tenant_id: ids.tenant }),
  listKeys: () => ({}),
  getKey: (ids) => ({ id: ids.key }),
  updateKey: (ids) => ({ id: ids.key, name: "renamed by security" }),
  rotateKey: (ids) => ({ id: ids.key }),
  revokeKey: (ids) => ({ id: ids.key }),
  getUsage: (ids) => ({ key_id: ids.key }),
  listTags: () => ({ limit: 100 }),
  createTag: () => ({ name: unique("sec-tag") }),
  getTag: (ids) => ({ id: ids.tag }),
  updateTag: (ids) => ({ id: ids.tag, description: "changed by security" }),
  deleteTag: (ids) => ({ id: ids.tag }),
  attachTags: (ids) => ({ memory_id: ids.memory, tag_ids: [ids.tag] }),
  detachTag: (ids) => ({ memory_id: ids.memory, tag_id: ids.tag }),
  createMemory: (ids) => ({
    content: "written by security",
    parent_memory_id: ids.memory,
    supersedes: ids.other,
    external_id: ids.external,
  }),
  createMemories: (ids) => ({
    items: [{ content: "batch by security", parent_memory_id: ids.memory, supersedes: ids.other }],
  }),
  listMemories: (ids) => ({
    parent_memory_id: ids.memory,
    tag_id: [ids.tag],
    entity_id: ids.entity,
    external_id: ids.external,
    limit: 100,
  }),
  getMemory: (ids) => ({ id: ids.memory }),
  updateMemory: (ids) => ({ id: ids.memory, content: "changed by security", parent_memory_id: ids.other }),
  deleteMemory: (ids) => ({ id: ids.memory, cascade: true }),
  createEntity: (ids) => ({ name: unique("Sec"), type: "concept", memory_ids: [ids.memory] }),
  listEntities: () => ({ limit: 100 }),
  getEntity: (ids) => ({ id: ids.entity }),
  updateEntity: (ids) => ({ id: ids.entity, description: "changed by security" }),
  deleteEntity: (ids) => ({ id: ids.entity }),
  linkEntityMemories: (ids) => ({ id: ids.entity, memory_ids: [ids.memory] }),
  unlinkEntityMemory: (ids) => ({ id: ids.entity, memory_id: ids.memory }),
  searchMemories: (ids) => ({ query: "*", limit: 100, parent_memory_id: ids.memory }),
  getContext: (ids) => ({ query: "tea", parent_memory_id: ids.memory, neighbors: 3 }),
  createWebhook: () => ({ url: "http://127.0.0.1:9/security", events: ["*"] }),
  listWebhooks: () => ({}),
  getWebhook: (ids) => ({ id: ids.webhook }),
  updateWebhook: (ids) => ({ id: ids.webhook, description: "changed by security" }),
  deleteWebhook: (ids) => ({ id: ids.webhook }),
  rotateWebhookSecret: (ids) => ({ id: ids.webhook }),
  testWebhook: (ids) => ({ id: ids.webhook }),
  listWebhookDeliveries: (ids) => ({ id: ids.webhook }),
  retryWebhookDelivery: (ids) => ({ id: ids.webhook, delivery_id: ids.delivery }),
  getTenant: (ids) => ({ tenant_id: ids.tenant }),
  updateTenant: (ids) => ({ tenant_id: ids.tenant, retention: {} }),
  createToken: () => ({ scopes: ["memories:read"], ttl_seconds: 60 }),
};

/** One HTTP request as sent: method, path with its query, and a JSON body. */
export interface RestRequest {
  method: string;
  path: string;
  body?: unknown;
}

/** The request of `route` for `ids`: path params from the input's fields, the rest as body or query. */
export function restRequest(route: RestRoute, ids: Ids): RestRequest {
  const input = { ...REST_INPUTS[route.operationId]!(ids) };
  let path = route.path;
  for (const [name, field] of Object.entries(pathFieldsOf(route))) {
    path = path.replace(`:${name}`, encodeURIComponent(String(input[field])));
    delete input[field];
  }
  if (route.method === "POST" || route.method === "PATCH")
    return { method: route.method, path: `/v1${path}`, body: input };
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(input))
    for (const one of [v].flat()) if (one !== undefined) query.append(k, String(one));
  const qs = query.toString();
  return { method: route.method, path: `/v1${path}${qs ? `?${qs}` : ""}` };
}

export { restRoutes };
