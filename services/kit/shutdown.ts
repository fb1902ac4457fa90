import type { NatsConnection } from "nats";
import type { RedisClient } from "./redis-functions";
import { errorFields, type Logger } from "./log";
import { flushTracing } from "./tracing/setup";

/** What one process stops, in the order it stops it; the connections close after them. */
export interface ShutdownSteps {
  log: Logger;
  nc: NatsConnection;
  redis: RedisClient;
  /** Set at the first signal: readiness answers "not ready" from then on. */
  state: { stopping: boolean };
  /** Stops taking new work (closes the listener or the NATS endpoints). */
  stopIntake: () => Promise<unknown>;
  /** Whether work taken before is still running; it gets up to 15 s to finish. */
  busy: () => boolean;
  /** Background work to stop once requests are done, before NATS drains. */
  stopWork?: () => Promise<unknown>;
  /** What must answer until the very end (probes, metrics), closed last. */
  closeLast?: () => void;
}

/**
 * The graceful stop of every process, gateway and services alike, on SIGTERM or SIGINT: stop taking
 * work, let in-flight work finish, stop background work, drain NATS, close Redis, export the last spans, exit 0.
 * Past 25 s it exits 1 wherever it is.
 */
export function stopOnSignals(s: ShutdownSteps): void {
  const shutdown = async (signal: string) => {
    if (s.state.stopping) return;
    s.state.stopping = true;
    s.log.info("shutting down", { signal });
    const hardStop = setTimeout(() => process.exit(1), 25_000);
    try {
      await s.stopIntake();
      s.log.debug("endpoints stopped");
      const deadline = Date.now() + 15_000;
      while (s.busy() && Date.now() < deadline) await Bun.sleep(10);
      await s.stopWork?.();
      s.log.debug("background work stopped");
      await s.nc.drain();
      s.log.debug("nats drained");
      await s.redis.quit().catch(() => s.redis.disconnect());
      await flushTracing();
    } catch (err) {
      s.log.error("shutdown error", errorFields(err));
    }
    clearTimeout(hardStop);
    s.closeLast?.();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
