import { Type as T } from "@sinclair/typebox";
import { loadServiceConfig } from "../kit/config";

const DURATION = "\\d+(?:\\.\\d+)?(?:ms|s|m|h|d)";

/** The webhooks service's settings (besides services/kit/config.ts' BaseConfig). */
export const WebhooksConfig = {
  /** Waits before each retry; tests use a short one. About 21 h in all by default, 8 attempts. */
  WEBHOOK_RETRY_SCHEDULE: T.String({ pattern: `^${DURATION}(?:,${DURATION})*$`, default: "5s,1m,5m,30m,2h,6h,12h" }),
  /** An endpoint whose every attempt failed for this long is disabled. */
  WEBHOOK_DISABLE_AFTER: T.String({ pattern: `^${DURATION}$`, default: "3d" }),
  /**
   * Hosts (names or IP literals, comma-separated) that may use http:// and resolve to private, loopback or
   * link-local addresses: receivers inside the operator's own network. Matched against the URL's host as
   * written, so a name that merely resolves to a listed address is not listed.
   */
  WEBHOOK_ALLOWED_HOSTS: T.String({ default: "" }),
  /** One attempt, from the DNS lookup to the end of the response body. */
  WEBHOOK_TIMEOUT_MS: T.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  /** Attempts one replica runs at once. */
  WEBHOOK_CONCURRENCY: T.Integer({ minimum: 1, maximum: 1024, default: 64 }),
};

export const loadWebhooksConfig = () => loadServiceConfig(WebhooksConfig);
