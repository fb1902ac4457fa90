import type { NatsConnection } from "nats";
import type { RedisClient } from "../services/kit/redis-functions";
import type { Bus } from "../services/kit/bus";
import type { Logger } from "../services/kit/log";
import type { GatewayConfig } from "./config";
import type { Guard } from "./http/exchange/guard";
import type { OriginPolicy } from "./http/cors/cors";
import type { UsageRecorder } from "./http/observability/usage-recorder";
import type { Metrics } from "./http/observability/metrics";
import type { Idempotency } from "./http/idempotency/idempotency";
import type { Sessions } from "./session/sessions";
import type { WebAssets } from "./web/assets";

/** Everything the gateway's adapters need, built once in main.ts. */
export interface GatewayDeps {
  config: GatewayConfig;
  nc: NatsConnection;
  redis: RedisClient;
  bus: Bus;
  guard: Guard;
  usage: UsageRecorder;
  /** Idempotency-Key: claims and kept answers of writes. */
  idempotency: Idempotency;
  metrics: Metrics;
  log: Logger;
  /** Dashboard sessions (the session cookie as a credential). */
  sessions: Sessions;
  /** The browser pages' built assets. */
  web: WebAssets;
  /** Browser access (CORS): preflights, and which origins a credential may be used from. */
  origins: OriginPolicy;
}
