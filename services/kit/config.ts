import { Type as T, type TObject, type Static, type TProperties } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

/** Settings every process reads. Each process extends them with its own. */
export const BaseConfig = {
  NATS_URL: T.String({ minLength: 1, default: "nats://127.0.0.1:4222" }),
  /** One Redis, or seed nodes of a Redis Cluster, comma-separated (`redis://a:6379,b:6379`). */
  REDIS_URL: T.String({ pattern: "^rediss?://", default: "redis://127.0.0.1:6379" }),
  /** Treat a single REDIS_URL as a seed node of a Redis Cluster (a list always is one). */
  REDIS_CLUSTER: T.Boolean({ default: false }),
  /** After each data write, wait for this many replicas to have it (`WAIT`); 0 = asynchronous replication. */
  REDIS_WAIT_REPLICAS: T.Integer({ minimum: 0, maximum: 5, default: 0 }),
  /** How long a write waits for those replicas before it answers 503. */
  REDIS_WAIT_TIMEOUT_MS: T.Integer({ minimum: 1, maximum: 60_000, default: 1000 }),
  LOG_LEVEL: T.Union([T.Literal("debug"), T.Literal("info"), T.Literal("warn"), T.Literal("error")], {
    default: "info",
  }),
  DATA_DIR: T.String({ default: "./.data" }),
  NATS_REQUEST_TIMEOUT_MS: T.Integer({ minimum: 100, maximum: 120_000, default: 5000 }),
  /**
   * Internal port, 0 = off: services serve their /healthz + /readyz probes there, the gateway its
   * /metrics (its probes stay on PORT).
   */
  HEALTH_PORT: T.Integer({ minimum: 0, maximum: 65535, default: 0 }),
  /** Copies of each JetStream stream: 1 on the local single node, 3 on a 3-node cluster. */
  JETSTREAM_REPLICAS: T.Integer({ minimum: 1, maximum: 5, default: 1 }),
};

export type BaseSettings = Static<TObject<typeof BaseConfig>>;

/** Loads BaseConfig plus a process's own settings, exiting with a clear message when invalid. */
export const loadServiceConfig = <P extends TProperties>(extra: P) =>
  configOrExit(() => loadConfig({ ...BaseConfig, ...extra }));

/**
 * Reads the environment once, applies defaults, converts numbers and validates.
 * On error it prints one line per bad variable and exits: a process never runs half-configured.
 */
export function loadConfig<P extends TProperties>(
  props: P,
  env: Record<string, string | undefined> = process.env,
): Static<TObject<P>> {
  const schema = T.Object(props);
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(props)) if (env[key] !== undefined && env[key] !== "") raw[key] = env[key];
  const value = Value.Convert(schema, Value.Default(schema, raw));
  const errors = [...Value.Errors(schema, value)];
  if (errors.length > 0) {
    const lines = errors.map(
      (e) =>
        `  ${e.path.slice(1)}=${JSON.stringify((value as Record<string, unknown>)[e.path.slice(1)])}: ${e.message}`,
    );
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  return value as Static<TObject<P>>;
}

export class ConfigError extends Error {}

/** Entry points call this so a bad config is one clear message and exit code 1, not a stack trace. */
export function configOrExit<C>(load: () => C): C {
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
