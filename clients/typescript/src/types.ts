import type { paths } from "./generated/api.ts";

/** Types of the service's operations, read off the generated OpenAPI types by path and method. */
export type Path = keyof paths;
type Method = "get" | "post" | "patch" | "delete";
type OperationOf<P extends Path, M extends Method> = NonNullable<paths[P][M]>;

export type BodyOf<P extends Path, M extends Method> =
  OperationOf<P, M> extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

export type QueryOf<P extends Path, M extends Method> =
  OperationOf<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type DataOf<P extends Path, M extends Method> =
  OperationOf<P, M> extends { responses: { 200: { content: { "application/json": { data: infer D } } } } } ? D : never;

/** An element of a list operation's `data`. */
export type ItemOf<P extends Path> = DataOf<P, "get"> extends readonly (infer I)[] ? I : never;

export type Memory = DataOf<"/v1/memories/{id}", "get">;
export type Tag = DataOf<"/v1/tags/{id}", "get">;
export type Entity = DataOf<"/v1/entities/{id}", "get">;
export type ApiKey = ItemOf<"/v1/keys">;
export type SearchResults = DataOf<"/v1/search", "post">;
export type Context = DataOf<"/v1/context", "post">;
export type UsageReport = DataOf<"/v1/usage", "get">;
export type Webhook = DataOf<"/v1/webhooks/{id}", "get">;
export type WebhookDelivery = ItemOf<"/v1/webhooks/{id}/deliveries">;
