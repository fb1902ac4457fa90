export { createClient, type MemoryServiceClient } from "./client.ts";
export { AbortError, MemoryServiceError, type ErrorCode, type ErrorDetails } from "./errors.ts";
export type { CallOptions, ClientOptions, ResponseMeta } from "./http.ts";
export type { Page } from "./pagination.ts";
export type { RetryPolicy } from "./retry.ts";
export type {
  ApiKey,
  Context,
  Entity,
  Memory,
  SearchResults,
  Tag,
  UsageReport,
  Webhook,
  WebhookDelivery,
} from "./types.ts";
export type { paths } from "./generated/api.ts";
