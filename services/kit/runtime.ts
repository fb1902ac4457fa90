import type { NatsConnection } from "nats";
import type { RedisClient } from "./redis-functions";
import type { BaseSettings } from "./config";
import { connectNats, connectRedis, redisReady, redisTroubledSince } from "./connect";
import type { Binding } from "./handler";
import { createLogger, type Logger } from "./log";
import { serveBindings } from "./serve";
import { createBus, type Bus } from "./bus";
import { stopOnSignals } from "./shutdown";
import { startTracing } from "./tracing/setup";
import { checkLayoutAtStart } from "../data-layout/check";
import { serviceMetadata } from "../data-layout/auto";

export interface ServiceDeps<C> {
  config: C;
  nc: NatsConnection;
  redis: RedisClient;
  bus: Bus;
  log: Logger;
}

export interface ServiceSetup {
  bindings: Binding[];
  /** Background work to stop on shutdown (consumers, timers), before NATS drains. */
  onStop?: () => Promise<void>;
}

/**
 * The whole life of a service process: config, connections, endpoints, and a graceful SIGTERM
 * (shutdown.ts: stop taking work, finish in-flight requests, drain NATS, close Redis, exit 0).
 */
export async function runService<C extends BaseSettings>(
  info: { name: string; version: string; description: string },
  config: C,
  setup: (deps: ServiceDeps<C>) => Promise<ServiceSetup> | ServiceSetup,
): Promise<void> {
  const log = createLogger({ service: info.name, pid: process.pid }, config.LOG_LEVEL);
  await startTracing(info.name, log);
  const redis = connectRedis(config.REDIS_URL, log, info.name, {
    cluster: config.REDIS_CLUSTER,
    replicaWait: { replicas: config.REDIS_WAIT_REPLICAS, timeoutMs: config.REDIS_WAIT_TIMEOUT_MS },
  });
  await redisReady(redis, log);
  await checkLayoutAtStart(redis, log);
  const nc = await connectNats(config.NATS_URL, info.name, log);
  const bus = createBus(nc, { timeoutMs: config.NATS_REQUEST_TIMEOUT_MS });
  const { bindings, onStop } = await setup({ config, nc, redis, bus, log });
  // The layout its code writes, in $SRV.INFO: a migration waits until no replica declares an older one.
  const described = { ...info, metadata: serviceMetadata() };
  const served = await serveBindings(nc, described, bindings, log, {
    troubledSince: (since) => redisTroubledSince(redis, since),
  });
  log.info("service started", { endpoints: bindings.map((b) => b.op.subject) });

  const state = { stopping: false };
  // bus.connected() is false while NATS is down or reconnecting (nc.isClosed() stays false then).
  const probes = config.HEALTH_PORT
    ? startProbeServer(
        config.HEALTH_PORT,
        () => !state.stopping && redis.status === "ready" && bus.connected() && !nc.isDraining(),
      )
    : null;
  stopOnSignals({
    log,
    nc,
    redis,
    state,
    stopIntake: () => served.stop(),
    busy: () => served.inFlight() > 0,
    stopWork: onStop,
    closeLast: () => probes?.stop(true),
  });
}

/**
 * Kubernetes probes for a service without HTTP traffic: liveness never depends on Redis or NATS
 * (a restart would not fix them); readiness does, and turns false as soon as shutdown starts.
 */
function startProbeServer(port: number, ready: () => boolean) {
  return Bun.serve({
    port,
    hostname: "0.0.0.0",
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/healthz") return Response.json({ status: "ok" });
      if (path === "/readyz")
        return ready() ? Response.json({ status: "ready" }) : Response.json({ status: "not ready" }, { status: 503 });
      return new Response("not found", { status: 404 });
    },
  });
}
