import { Type as T, type Static, type TObject } from "@sinclair/typebox";
import { BaseConfig, configOrExit, loadConfig } from "../services/kit/config";

const GatewayConfigProps = {
  ...BaseConfig,
  PORT: T.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: T.String({ default: "0.0.0.0" }),
  BODY_LIMIT_BYTES: T.Integer({ minimum: 1024, maximum: 64 * 1024 * 1024, default: 1024 * 1024 }),
  KEY_CACHE_TTL_MS: T.Integer({ minimum: 0, maximum: 300_000, default: 30_000 }),
  RATE_LIMIT_FALLBACK_S: T.Integer({
    minimum: 0,
    maximum: 3600,
    default: 300,
    description: "How long each replica rate-limits alone while Redis cannot (full, down or slow); 0 = fail closed",
  }),
  RATE_LIMIT_REDIS_TIMEOUT_MS: T.Integer({ minimum: 10, maximum: 10_000, default: 500 }),
  GATEWAY_REPLICAS: T.Integer({
    minimum: 1,
    maximum: 1000,
    default: 1,
    description: "Gateway replicas sharing a key's budget while the limiter decides locally",
  }),
  SERVICES: T.String({ default: "keys,memories,tags,search,webhooks", description: "Services /readyz waits for" }),
  /**
   * Behind a reverse proxy that sets X-Forwarded-Proto and X-Forwarded-For (and strips what clients sent): believe
   * them for the dashboard cookie's Secure flag and the sign-in limiter's client address.
   */
  TRUST_PROXY: T.Boolean({ default: false }),
  /** A dashboard session ends after this long without a request (every request renews it). */
  SESSION_IDLE_MS: T.Integer({ minimum: 60_000, maximum: 7 * 86_400_000, default: 8 * 3_600_000 }),
  /** Dashboard sign-in attempts per client address and minute, whatever the key. */
  SIGNIN_ATTEMPTS_PER_MINUTE: T.Integer({ minimum: 1, maximum: 1_000_000, default: 10 }),
  /** /metrics: the tenant environments storing the most bytes that get series (bounded label cardinality). */
  METRICS_STORAGE_TOP: T.Integer({ minimum: 1, maximum: 1000, default: 20 }),
  /** Built browser assets (the container image's); unset: the gateway bundles dashboard/ at start. */
  WEB_ASSETS_DIR: T.String({ default: "" }),
};

export type GatewayConfig = Static<TObject<typeof GatewayConfigProps>>;

export const loadGatewayConfig = () => configOrExit(() => loadConfig(GatewayConfigProps));
