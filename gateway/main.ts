import { loadGatewayConfig } from "./config";
import { createLogger } from "../services/kit/log";
import { connectNats, connectRedis, redisReady } from "../services/kit/connect";
import { createBus } from "../services/kit/bus";
import { ensureStream } from "../services/kit/streams";
import { stopOnSignals } from "../services/kit/shutdown";
import { STREAMS } from "../services/contract/streams";
import { createAuthenticator } from "./http/auth/auth";
import { createRateLimiter } from "./http/limits/rate-limit";
import { createGuard } from "./http/exchange/guard";
import { createIdempotency } from "./http/idempotency/idempotency";
import { createOriginPolicy } from "./http/cors/cors";
import { createUsageRecorder } from "./http/observability/usage-recorder";
import { createApp } from "./app";
import { createMetrics, serveMetrics } from "./http/observability/metrics";
import { registerRedisMemory } from "./http/observability/redis-metrics";
import { registerTenantStorage } from "./http/observability/storage-metrics";
import type { GatewayDeps } from "./deps";
import { createSessionStore } from "./session/store";
import { createSessions } from "./session/sessions";
import { loadWebAssets } from "./web/load";
import { startTracing } from "../services/kit/tracing/setup";
import { checkLayoutAtStart } from "../services/data-layout/check";
import { registerLayoutMetrics } from "./http/observability/layout-metrics";

const config = loadGatewayConfig();
const log = createLogger({ service: "gateway", pid: process.pid }, config.LOG_LEVEL);
await startTracing("gateway", log);
const web = await loadWebAssets(config.WEB_ASSETS_DIR, log);
const redis = connectRedis(config.REDIS_URL, log, "gateway", { cluster: config.REDIS_CLUSTER });
await redisReady(redis, log);
await checkLayoutAtStart(redis, log);
const nc = await connectNats(config.NATS_URL, "gateway", log);
await ensureStream(nc, STREAMS.USAGE, config.JETSTREAM_REPLICAS);
const metrics = createMetrics();
registerRedisMemory(metrics.registry, redis);
registerLayoutMetrics(metrics.registry, redis);
const bus = createBus(nc, { timeoutMs: config.NATS_REQUEST_TIMEOUT_MS, observe: metrics.observeNats });
registerTenantStorage(metrics.registry, bus, config.METRICS_STORAGE_TOP);
const auth = createAuthenticator(nc, bus, { ttlMs: config.KEY_CACHE_TTL_MS, negativeTtlMs: 2000, maxEntries: 10_000 });
const limiter = createRateLimiter(redis, {
  fallback: { maxMs: config.RATE_LIMIT_FALLBACK_S * 1000, replicas: config.GATEWAY_REPLICAS },
  timeoutMs: config.RATE_LIMIT_REDIS_TIMEOUT_MS,
  log,
});
const origins = createOriginPolicy(bus, { trustProxy: config.TRUST_PROXY });
const guard = createGuard(auth, limiter, origins);
const sessionStore = createSessionStore(redis, { idleMs: config.SESSION_IDLE_MS });
const signInPerMinute = config.SIGNIN_ATTEMPTS_PER_MINUTE;
const deps: GatewayDeps = {
  config,
  nc,
  redis,
  bus,
  guard,
  usage: createUsageRecorder(nc, log),
  idempotency: createIdempotency(redis, log),
  metrics,
  log,
  sessions: createSessions({ guard, store: sessionStore, limiter, signInPerMinute }),
  web,
  origins,
};
const state = { stopping: false };
const app = createApp(deps, state).listen({ port: config.PORT, hostname: config.HOST });
log.info("gateway listening", { port: app.server?.port });
const metricsServer = config.HEALTH_PORT ? serveMetrics(metrics, config.HEALTH_PORT, config.HOST) : null;
if (metricsServer) log.info("metrics served", { port: metricsServer.port, path: "/metrics" });

stopOnSignals({
  log,
  nc,
  redis,
  state, // /readyz answers 503 once it is stopping
  stopIntake: async () => app.server?.stop(false), // stop accepting, let in-flight requests finish
  busy: () => (app.server?.pendingRequests ?? 0) > 0,
  stopWork: async () => {
    await deps.usage.close();
    auth.close();
  },
  closeLast: () => metricsServer?.stop(true),
});
