import { closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { freePort, startNats, startRedis, withDeathSignal, type NatsProcess, type RedisProcess } from "./infra";
import { resolveAdminKey } from "./admin-key";
import { startNatsCluster, startRedisCluster, type ClusterProcesses } from "./clusters";

export const ALL_SERVICES = ["keys", "memories", "tags", "search", "webhooks"] as const;
export type ServiceName = (typeof ALL_SERVICES)[number];

const ROOT = resolve(import.meta.dir, "../..");
/** Services present in this checkout (each issue adds its own). */
export const SERVICE_NAMES = ALL_SERVICES.filter((n) => existsSync(join(ROOT, "services", n, "main.ts")));

export interface StackOptions {
  dataDir: string;
  /** Gateway port; 0 or undefined = a free port. */
  port?: number;
  replicas?: Partial<Record<ServiceName, number>>;
  /** Extra environment for every process (LOG_LEVEL, limits…). */
  env?: Record<string, string>;
  /** Services not to start (e.g. a benchmark "before embeddings" runs without search). */
  without?: ServiceName[];
  /**
   * Private infrastructure as clusters: a Redis Cluster (3 primaries, 1 replica each unless `redisReplicas`
   * says otherwise) and 3 NATS nodes, with JetStream streams replicated 3 times.
   */
  cluster?: boolean | { redisReplicas: number };
}

/** One child process of the stack (a service replica or the gateway). */
export interface Child {
  name: string;
  proc: Subprocess;
  logFile: string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number>;
  kill9(): Promise<void>;
}

export interface Stack {
  baseUrl: string;
  /** The gateway's internal /metrics (its HEALTH_PORT), never on the API port. */
  metricsUrl: string;
  adminKey: string;
  adminKeyGenerated: boolean;
  adminKeyFile: string | null;
  redisUrl: string;
  natsUrl: string;
  /** Private single-node infrastructure; null when REDIS_URL / NATS_URL point elsewhere, or for clusters. */
  redis: RedisProcess | null;
  nats: NatsProcess | null;
  /** The private clusters of a `cluster` stack, else null. */
  clusters: { redis: ClusterProcesses<RedisProcess>; nats: ClusterProcesses<NatsProcess> } | null;
  services: Record<ServiceName, Child[]>;
  gateway: Child;
  env: Record<string, string>;
  /** Starts one more replica of a service (or a replacement), with `env` added to the stack's. */
  addReplica(name: ServiceName, env?: Record<string, string>): Child;
  /**
   * Starts one more gateway replica on its own free port, with `env` added to the stack's; resolves when its
   * /readyz is 200.
   */
  addGateway(env?: Record<string, string>): Promise<{ child: Child; baseUrl: string; metricsUrl: string }>;
  waitReady(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** One process of this checkout (`entry` from its root), its output appended to `<logDir>/<name>.log`. */
export function spawnChild(name: string, entry: string, env: Record<string, string>, logDir: string): Child {
  const logFile = join(logDir, `${name}.log`);
  const fd = openSync(logFile, "a");
  // Kernel-enforced cleanup: the child gets SIGTERM if the launcher dies, however it dies.
  const proc = Bun.spawn(withDeathSignal([process.execPath, join(ROOT, entry)]), {
    cwd: ROOT,
    env,
    stdout: fd,
    stderr: fd,
    stdin: "ignore",
  });
  closeSync(fd);
  return {
    name,
    proc,
    logFile,
    async stop() {
      if (proc.exitCode === null && !proc.killed) proc.kill("SIGTERM");
      return await proc.exited;
    },
    async kill9() {
      proc.kill("SIGKILL");
      await proc.exited;
    },
  };
}

/**
 * Starts the whole topology as separate processes: Redis and NATS (private, unless REDIS_URL /
 * NATS_URL are set), each service (N replicas each) and the gateway; resolves when /readyz is 200.
 */
export async function startStack(opts: StackOptions): Promise<Stack> {
  const dataDir = resolve(opts.dataDir);
  const logDir = join(dataDir, "logs");
  mkdirSync(logDir, { recursive: true });
  const clusters = opts.cluster
    ? await startClusters(dataDir, typeof opts.cluster === "object" ? opts.cluster.redisReplicas : 1)
    : null;
  const redis = process.env.REDIS_URL || clusters ? null : await startRedis({ dataDir });
  const nats = process.env.NATS_URL || clusters ? null : await startNats({ dataDir });
  const redisUrl = clusters?.redis.url ?? redis?.url ?? process.env.REDIS_URL!;
  const natsUrl = clusters?.nats.url ?? nats?.url ?? process.env.NATS_URL!;
  const admin = resolveAdminKey(dataDir);
  const port = opts.port || (await freePort());
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    ...(clusters ? { JETSTREAM_REPLICAS: "3" } : {}),
    ...opts.env,
    REDIS_URL: redisUrl,
    NATS_URL: natsUrl,
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_KEY: admin.key,
    PORT: String(port),
    SERVICES: SERVICE_NAMES.join(","),
  };
  const names = SERVICE_NAMES.filter((n) => !opts.without?.includes(n));
  env.SERVICES = names.join(",");
  let counter = 0;
  const services = Object.fromEntries(SERVICE_NAMES.map((n) => [n, [] as Child[]])) as Record<ServiceName, Child[]>;
  const addReplica = (name: ServiceName, extra: Record<string, string> = {}) => {
    const child = spawnChild(`${name}-${++counter}`, `services/${name}/main.ts`, { ...env, ...extra }, logDir);
    services[name].push(child);
    return child;
  };
  for (const name of names) for (let i = 0; i < (opts.replicas?.[name] ?? 1); i++) addReplica(name);
  // Each gateway serves /metrics on its own internal port (services keep HEALTH_PORT off locally).
  const metricsPort = await freePort();
  const gateway = spawnChild("gateway", "gateway/main.ts", { ...env, HEALTH_PORT: String(metricsPort) }, logDir);
  const baseUrl = `http://127.0.0.1:${port}`;
  const moreGateways: Child[] = [];

  const all = () => [gateway, ...moreGateways, ...Object.values(services).flat()];
  const waitReadyAt = async (url: string, child: Child, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    let last = "";
    while (Date.now() < deadline) {
      const dead = all().find((c) => c.proc.exitCode !== null);
      if (dead && dead === child) {
        throw new Error(`${child.name} exited with ${dead.proc.exitCode}; see ${dead.logFile}`);
      }
      try {
        const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) return;
        last = await res.text();
      } catch (err) {
        last = (err as Error).message;
      }
      await Bun.sleep(100);
    }
    throw new Error(`stack not ready after ${timeoutMs} ms: ${last}`);
  };
  const stack: Stack = {
    baseUrl,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    adminKey: admin.key,
    adminKeyGenerated: admin.generated,
    adminKeyFile: admin.file,
    redisUrl,
    natsUrl,
    redis,
    nats,
    clusters,
    services,
    gateway,
    env,
    addReplica,
    async addGateway(extra = {}) {
      const [apiPort, internalPort] = [await freePort(), await freePort()];
      const ports = { PORT: String(apiPort), HEALTH_PORT: String(internalPort) };
      const child = spawnChild(`gateway-${++counter}`, "gateway/main.ts", { ...env, ...extra, ...ports }, logDir);
      moreGateways.push(child);
      const url = `http://127.0.0.1:${apiPort}`;
      await waitReadyAt(url, child, 60_000);
      return { child, baseUrl: url, metricsUrl: `http://127.0.0.1:${internalPort}/metrics` };
    },
    waitReady: (timeoutMs = 60_000) => waitReadyAt(baseUrl, gateway, timeoutMs),
    async stop() {
      await Promise.all([gateway, ...moreGateways].map((g) => g.stop()));
      await Promise.all(
        Object.values(services)
          .flat()
          .map((c) => c.stop()),
      );
      await nats?.stop();
      await redis?.stop();
      await clusters?.nats.stop();
      await clusters?.redis.stop();
    },
  };
  // Never leave orphans behind if the launcher dies.
  process.on("exit", () => {
    for (const c of all()) if (c.proc.exitCode === null) c.proc.kill("SIGKILL");
  });
  try {
    await stack.waitReady();
  } catch (err) {
    await stack.stop().catch(() => undefined);
    throw err;
  }
  return stack;
}

async function startClusters(dataDir: string, replicas: number) {
  const [redis, nats] = await Promise.allSettled([
    startRedisCluster({ dataDir, replicas }),
    startNatsCluster({ dataDir }),
  ]);
  if (redis.status === "fulfilled" && nats.status === "fulfilled") return { redis: redis.value, nats: nats.value };
  if (redis.status === "fulfilled") await redis.value.stop();
  if (nats.status === "fulfilled") await nats.value.stop();
  throw redis.status === "rejected" ? redis.reason : (nats as PromiseRejectedResult).reason;
}
