import { createTransport, type CallOptions, type ClientOptions, type RequestSpec, type Transport } from "./http.ts";
import { iterate, listPage, type ListQuery, type Page } from "./pagination.ts";
import type { ApiKey, BodyOf, DataOf, Entity, Memory, QueryOf, Tag, Webhook, WebhookDelivery } from "./types.ts";

const id = (value: string) => encodeURIComponent(value);

/** A typed list resource: one page, or every item as an async iterator. */
function listing<T, Q extends object>(request: Transport, path: string) {
  return {
    list: (query?: Q, options?: CallOptions): Promise<Page<T>> =>
      listPage<T>(request, path, query as ListQuery | undefined, options),
    iterate: (query?: Q, options?: CallOptions): AsyncIterable<T> =>
      iterate<T>(request, path, query as ListQuery | undefined, options),
  };
}

/**
 * The service's client: one object, a method per operation, typed from the OpenAPI document. Every method
 * answers the `data` of the envelope, throws `MemoryServiceError` (code, details, requestId) on refusal, and
 * takes `{signal, timeoutMs}` last. Reads and searches are retried after 503/504 and network errors; every
 * call is retried after 429, once its Retry-After has passed.
 */
export function createClient(options: ClientOptions) {
  const request = createTransport(options);
  const send = async <T>(spec: RequestSpec, call?: CallOptions) => (await request<T>(spec, call)).data;
  const read = <T>(path: string, call?: CallOptions) => send<T>({ method: "GET", path, idempotent: true }, call);
  const write = <T>(method: "POST" | "PATCH" | "DELETE", path: string, body?: unknown, call?: CallOptions) =>
    send<T>({ method, path, body, idempotent: false }, call);

  return {
    memories: {
      ...listing<Memory, QueryOf<"/v1/memories", "get">>(request, "/v1/memories"),
      create: (body: BodyOf<"/v1/memories", "post">, call?: CallOptions) =>
        write<DataOf<"/v1/memories", "post">>("POST", "/v1/memories", body, call),
      /** Up to 500 memories; each item answers its memory (`data`) or its refusal (`error`), in order. */
      createBatch: (items: BodyOf<"/v1/memories/batch", "post">["items"], call?: CallOptions) =>
        write<DataOf<"/v1/memories/batch", "post">>("POST", "/v1/memories/batch", { items }, call),
      get: (memoryId: string, call?: CallOptions) => read<Memory>(`/v1/memories/${id(memoryId)}`, call),
      update: (memoryId: string, patch: BodyOf<"/v1/memories/{id}", "patch">, call?: CallOptions) =>
        write<DataOf<"/v1/memories/{id}", "patch">>("PATCH", `/v1/memories/${id(memoryId)}`, patch, call),
      delete: (memoryId: string, query?: QueryOf<"/v1/memories/{id}", "delete">, call?: CallOptions) =>
        send<DataOf<"/v1/memories/{id}", "delete">>(
          { method: "DELETE", path: `/v1/memories/${id(memoryId)}`, query, idempotent: false },
          call,
        ),
      attachTags: (memoryId: string, body: BodyOf<"/v1/memories/{id}/tags", "post">, call?: CallOptions) =>
        write<DataOf<"/v1/memories/{id}/tags", "post">>("POST", `/v1/memories/${id(memoryId)}/tags`, body, call),
      detachTag: (memoryId: string, tagId: string, call?: CallOptions) =>
        write<DataOf<"/v1/memories/{id}/tags/{tagId}", "delete">>(
          "DELETE",
          `/v1/memories/${id(memoryId)}/tags/${id(tagId)}`,
          undefined,
          call,
        ),
    },
    tags: {
      ...listing<Tag, QueryOf<"/v1/tags", "get">>(request, "/v1/tags"),
      create: (body: BodyOf<"/v1/tags", "post">, call?: CallOptions) => write<Tag>("POST", "/v1/tags", body, call),
      get: (tagId: string, call?: CallOptions) => read<Tag>(`/v1/tags/${id(tagId)}`, call),
      update: (tagId: string, patch: BodyOf<"/v1/tags/{id}", "patch">, call?: CallOptions) =>
        write<Tag>("PATCH", `/v1/tags/${id(tagId)}`, patch, call),
      delete: (tagId: string, call?: CallOptions) =>
        write<DataOf<"/v1/tags/{id}", "delete">>("DELETE", `/v1/tags/${id(tagId)}`, undefined, call),
    },
    entities: {
      ...listing<Entity, QueryOf<"/v1/entities", "get">>(request, "/v1/entities"),
      create: (body: BodyOf<"/v1/entities", "post">, call?: CallOptions) =>
        write<Entity>("POST", "/v1/entities", body, call),
      get: (entityId: string, call?: CallOptions) => read<Entity>(`/v1/entities/${id(entityId)}`, call),
      update: (entityId: string, patch: BodyOf<"/v1/entities/{id}", "patch">, call?: CallOptions) =>
        write<Entity>("PATCH", `/v1/entities/${id(entityId)}`, patch, call),
      delete: (entityId: string, call?: CallOptions) =>
        write<DataOf<"/v1/entities/{id}", "delete">>("DELETE", `/v1/entities/${id(entityId)}`, undefined, call),
      link: (entityId: string, body: BodyOf<"/v1/entities/{id}/memories", "post">, call?: CallOptions) =>
        write<DataOf<"/v1/entities/{id}/memories", "post">>(
          "POST",
          `/v1/entities/${id(entityId)}/memories`,
          body,
          call,
        ),
      unlink: (entityId: string, memoryId: string, call?: CallOptions) =>
        write<DataOf<"/v1/entities/{id}/memories/{memoryId}", "delete">>(
          "DELETE",
          `/v1/entities/${id(entityId)}/memories/${id(memoryId)}`,
          undefined,
          call,
        ),
    },
    /** Hybrid search; a read, so it is retried like one. */
    search: (body: BodyOf<"/v1/search", "post">, call?: CallOptions) =>
      send<DataOf<"/v1/search", "post">>({ method: "POST", path: "/v1/search", body, idempotent: true }, call),
    /** Context for a language model within a token budget; a read, so it is retried like one. */
    context: (body: BodyOf<"/v1/context", "post">, call?: CallOptions) =>
      send<DataOf<"/v1/context", "post">>({ method: "POST", path: "/v1/context", body, idempotent: true }, call),
    keys: {
      ...listing<ApiKey, QueryOf<"/v1/keys", "get">>(request, "/v1/keys"),
      create: (body: BodyOf<"/v1/keys", "post">, call?: CallOptions) =>
        write<DataOf<"/v1/keys", "post">>("POST", "/v1/keys", body, call),
      get: (keyId: string, call?: CallOptions) => read<ApiKey>(`/v1/keys/${id(keyId)}`, call),
      update: (keyId: string, patch: BodyOf<"/v1/keys/{id}", "patch">, call?: CallOptions) =>
        write<DataOf<"/v1/keys/{id}", "patch">>("PATCH", `/v1/keys/${id(keyId)}`, patch, call),
      /** A new secret for the key (shown only here); the old one ends at once or after `grace_seconds`. */
      rotate: (keyId: string, body: BodyOf<"/v1/keys/{id}/rotate", "post"> = {}, call?: CallOptions) =>
        write<DataOf<"/v1/keys/{id}/rotate", "post">>("POST", `/v1/keys/${id(keyId)}/rotate`, body, call),
      revoke: (keyId: string, call?: CallOptions) =>
        write<DataOf<"/v1/keys/{id}", "delete">>("DELETE", `/v1/keys/${id(keyId)}`, undefined, call),
    },
    /** Short-lived browser tokens (`tokens:create`): mint one per end user, to pass as `apiKey` in their browser. */
    tokens: {
      create: (body: BodyOf<"/v1/tokens", "post"> = {}, call?: CallOptions) =>
        write<DataOf<"/v1/tokens", "post">>("POST", "/v1/tokens", body, call),
    },
    /** Outbound webhooks of the key's tenant and environment (`admin`). */
    webhooks: {
      ...listing<Webhook, QueryOf<"/v1/webhooks", "get">>(request, "/v1/webhooks"),
      /** Registers an endpoint; its signing secret (`whsec_…`) is in the answer only this once. */
      create: (body: BodyOf<"/v1/webhooks", "post">, call?: CallOptions) =>
        write<DataOf<"/v1/webhooks", "post">>("POST", "/v1/webhooks", body, call),
      get: (webhookId: string, call?: CallOptions) => read<Webhook>(`/v1/webhooks/${id(webhookId)}`, call),
      update: (webhookId: string, patch: BodyOf<"/v1/webhooks/{id}", "patch">, call?: CallOptions) =>
        write<Webhook>("PATCH", `/v1/webhooks/${id(webhookId)}`, patch, call),
      delete: (webhookId: string, call?: CallOptions) =>
        write<DataOf<"/v1/webhooks/{id}", "delete">>("DELETE", `/v1/webhooks/${id(webhookId)}`, undefined, call),
      /** A new signing secret (shown only here); the previous one signs deliveries too for 24 hours. */
      rotateSecret: (webhookId: string, call?: CallOptions) =>
        write<DataOf<"/v1/webhooks/{id}/rotate-secret", "post">>(
          "POST",
          `/v1/webhooks/${id(webhookId)}/rotate-secret`,
          {},
          call,
        ),
      /** Sends a `ping` event now; the answer is its delivery, to follow in `deliveries`. */
      test: (webhookId: string, call?: CallOptions) =>
        write<WebhookDelivery>("POST", `/v1/webhooks/${id(webhookId)}/test`, {}, call),
      /** Recent deliveries, newest first, with their attempts and next retry. */
      deliveries: (webhookId: string, query?: QueryOf<"/v1/webhooks/{id}/deliveries", "get">, call?: CallOptions) =>
        listing<WebhookDelivery, QueryOf<"/v1/webhooks/{id}/deliveries", "get">>(
          request,
          `/v1/webhooks/${id(webhookId)}/deliveries`,
        ).list(query, call),
      iterateDeliveries: (webhookId: string, query?: QueryOf<"/v1/webhooks/{id}/deliveries", "get">) =>
        listing<WebhookDelivery, QueryOf<"/v1/webhooks/{id}/deliveries", "get">>(
          request,
          `/v1/webhooks/${id(webhookId)}/deliveries`,
        ).iterate(query),
      /** Attempts one delivery again now, whatever its status. */
      retryDelivery: (webhookId: string, deliveryId: string, call?: CallOptions) =>
        write<WebhookDelivery>("POST", `/v1/webhooks/${id(webhookId)}/deliveries/${id(deliveryId)}/retry`, {}, call),
    },
    usage: (query?: QueryOf<"/v1/usage", "get">, call?: CallOptions) =>
      send<DataOf<"/v1/usage", "get">>({ method: "GET", path: "/v1/usage", query, idempotent: true }, call),
    /** The settings of the key's tenant and environment (retention defaults, CORS allow-list). */
    tenant: {
      get: (call?: CallOptions) => read<DataOf<"/v1/tenant", "get">>("/v1/tenant", call),
      update: (patch: BodyOf<"/v1/tenant", "patch">, call?: CallOptions) =>
        write<DataOf<"/v1/tenant", "patch">>("PATCH", "/v1/tenant", patch, call),
    },
  };
}

export type MemoryServiceClient = ReturnType<typeof createClient>;
