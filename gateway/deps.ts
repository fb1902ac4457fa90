import type { NatsConnection } from "nats";
import type { RedisClient } from "../services/kit/redis-functions";
import type { Bus } from "../services/kit/bus";
import type { Logger } from "../services/kit/log";
import type { GatewayConfig } from "./config";
import type { Guard } from "./http/guard";
import type { UsageRecorder } from "./http/usage-recorder";
import type { Metrics } from "./http/metrics";

/** Everything the gateway's adapters need, built once in main.ts. */
export interface GatewayDeps {
  config: GatewayConfig;
  nc: NatsConnection;
  redis: RedisClient;
  bus: Bus;
  guard: Guard;
  usage: UsageRecorder;
  metrics: Metrics;
  log: Logger;
}
