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
};

export type GatewayConfig = Static<TObject<typeof GatewayConfigProps>>;

export const loadGatewayConfig = () => configOrExit(() => loadConfig(GatewayConfigProps));
