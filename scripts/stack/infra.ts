// Local Redis 8 and NATS (JetStream) as supervised child processes, for the
// dev stack and tests. Binaries come from REDIS_SERVER_BIN / NATS_SERVER_BIN
// (set by scripts/bootstrap.mjs), falling back to PATH.
import {
  accessSync,
  closeSync,
  constants as fsConstants,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { createServer, connect as tcpConnect } from "node:net";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { connect as natsConnect } from "nats";

export interface ManagedProcess {
  readonly url: string;
  readonly port: number;
  /** Current pid; changes after restart(). */
  readonly pid: number;
  /** stdout/stderr (and Redis' own log) go here. */
  readonly logFile: string;
  /** Graceful: SIGTERM, wait for exit (SIGKILL after 10 s). Idempotent. */
  stop(): Promise<void>;
  /** Simulated crash: SIGKILL, wait for exit. */
  kill9(): Promise<void>;
  /** Stop if running, then start again on the same port and data dir; waits until ready. */
  restart(): Promise<void>;
}
export type RedisProcess = ManagedProcess;
export type NatsProcess = ManagedProcess;

export interface StartOptions {
  dataDir: string;
  port?: number;
  /** More server arguments (e.g. `--cluster-enabled yes` for a test cluster). */
  args?: string[];
}

const HOST = "127.0.0.1";
const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;

/** Ask the kernel for a free port. Racy by nature, but good enough locally. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", rej);
    srv.listen(0, HOST, () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === "object" ? res(addr.port) : rej(new Error("no port"))));
    });
  });
}

// ------------------------------------------------------------------ Redis

export async function startRedis(opts: StartOptions): Promise<RedisProcess> {
  const bin = findBin("REDIS_SERVER_BIN", ["redis-server"]);
  const dir = resolve(opts.dataDir, "redis");
  mkdirSync(dir, { recursive: true });
  const port = opts.port || (await freePort()); // 0 = any free port
  const logFile = join(dir, "redis.log");
  // prettier-ignore
  const cmd = [
    bin,
    "--bind",
    HOST,
    "--port",
    String(port),
    "--protected-mode",
    "no",
    "--daemonize",
    "no",
    "--dir",
    dir,
    "--logfile",
    logFile,
    // AOF only: an acknowledged write survives a kill -9 of Redis, since it is
    // write(2)-n to the page cache before the reply (test/faults/redis-crash).
    // Exception (aof.c): while a background fsync is still running, everysec
    // postpones that write up to 2 s yet still replies, so on a disk too slow
    // to fsync in time a kill -9 can lose those; an OS crash loses up to ~2 s.
    "--appendonly",
    "yes",
    "--appendfsync",
    "everysec",
    "--save",
    "",
    ...(opts.args ?? []),
  ];
  return supervise({
    name: "redis-server",
    url: `redis://${HOST}:${port}`,
    port,
    logFile,
    cwd: dir,
    cmd,
    ready: (pid) => redisReady(port, pid),
  });
}

/**
 * PING answers +PONG only once the AOF is loaded (-LOADING before). INFO's
 * process_id proves the answer comes from *our* child, not whoever else may
 * hold the port.
 */
function redisReady(port: number, pid: number): Promise<boolean> {
  return new Promise((res, rej) => {
    let buf = "";
    const sock = tcpConnect({ host: HOST, port });
    const done = (ok: boolean, err?: Error) => {
      sock.destroy();
      err ? rej(err) : res(ok);
    };
    sock.setTimeout(1000, () => done(false));
    sock.on("error", () => done(false));
    sock.on("connect", () => sock.write("PING\r\nINFO server\r\n"));
    sock.on("data", (d) => {
      buf += d.toString();
      const m = /process_id:(\d+)\r\n/.exec(buf);
      if (!m) return;
      if (Number(m[1]) !== pid) done(false, new Error(`port ${port} is served by another process (pid ${m[1]})`));
      else done(buf.startsWith("+PONG"));
    });
  });
}

// ------------------------------------------------------------------ NATS

export async function startNats(opts: StartOptions): Promise<NatsProcess> {
  const bin = findBin("NATS_SERVER_BIN", ["nats-server", "/usr/sbin/nats-server"]);
  const dir = resolve(opts.dataDir, "nats");
  mkdirSync(dir, { recursive: true });
  const port = opts.port || (await freePort()); // 0 = any free port
  // Stable per data dir (JetStream state lives there), and lets the readiness
  // probe tell our server apart from a stranger on the same port.
  const serverName = `memory-service-${Bun.hash(dir).toString(36)}`;
  const conf = join(dir, "nats-server.conf");
  writeFileSync(conf, `server_name: "${serverName}"\nmax_payload: 8MB\n`);
  const cmd = [bin, "-c", conf, "-a", HOST, "-p", String(port), "-js", "-sd", dir, ...(opts.args ?? [])];
  return supervise({
    name: "nats-server",
    url: `nats://${HOST}:${port}`,
    port,
    cwd: dir,
    cmd,
    logFile: join(dir, "nats-server.log"),
    ready: () => natsReady(port, serverName),
  });
}

async function natsReady(port: number, serverName: string): Promise<boolean> {
  if (!(await tcpOpen(port))) return false; // cheap check before a full client handshake
  const nc = await natsConnect({ servers: `${HOST}:${port}`, reconnect: false, timeout: 1000 }).catch(() => null);
  if (!nc) return false;
  try {
    if (nc.info?.server_name !== serverName)
      throw new Error(`port ${port} is served by another NATS server (${nc.info?.server_name})`);
    await nc.jetstreamManager({ timeout: 1000 }); // account-info request: JetStream is up
    return true;
  } catch (e) {
    if (e instanceof Error && e.message.startsWith("port ")) throw e;
    return false;
  } finally {
    await nc.close();
  }
}

function tcpOpen(port: number): Promise<boolean> {
  return new Promise((res) => {
    const sock = tcpConnect({ host: HOST, port });
    const done = (ok: boolean) => {
      sock.destroy();
      res(ok);
    };
    sock.setTimeout(1000, () => done(false));
    sock.on("connect", () => done(true));
    sock.on("error", () => done(false));
  });
}

// ------------------------------------------------------------------ supervision

/** $envVar if set (must be executable), else the first candidate found on PATH / as an absolute path. */
export function findBin(envVar: string, candidates: string[]): string {
  const fromEnv = process.env[envVar];
  const isExe = (p: string) => {
    try {
      accessSync(p, fsConstants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (fromEnv) {
    if (!isExe(fromEnv)) throw new Error(`${envVar}=${fromEnv} is not an executable file`);
    return fromEnv;
  }
  for (const c of candidates) {
    const p = c.startsWith("/") ? (isExe(c) ? c : null) : Bun.which(c);
    if (p) return p;
  }
  throw new Error(`${candidates[0]} not found: run through \`node scripts/bootstrap.mjs\` or set ${envVar}`);
}

interface Spec {
  name: string;
  url: string;
  port: number;
  logFile: string;
  cwd: string;
  cmd: string[];
  /** true = ready, false = not yet; throws = give up. */
  ready(pid: number): Promise<boolean>;
}

async function supervise(spec: Spec): Promise<ManagedProcess> {
  let proc = await launch(spec);
  return {
    url: spec.url,
    port: spec.port,
    logFile: spec.logFile,
    get pid() {
      return proc.pid;
    },
    stop: () => terminate(proc),
    kill9: async () => {
      proc.kill("SIGKILL");
      await proc.exited;
    },
    restart: async () => {
      await terminate(proc);
      proc = await launch(spec);
    },
  };
}

async function launch(spec: Spec): Promise<Subprocess> {
  // Child writes straight to the log file: no pipes for us to drain, and the
  // log survives us for post-mortems.
  const fd = openSync(spec.logFile, "a");
  let proc: Subprocess;
  try {
    // detached = own process group: a terminal Ctrl-C reaches only our parent,
    // which can then stop services before their Redis/NATS go away.
    proc = Bun.spawn({ cmd: withDeathSignal(spec.cmd), cwd: spec.cwd, stdio: ["ignore", fd, fd], detached: true });
  } finally {
    closeSync(fd);
  }
  track(proc);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null)
        throw new Error(`${spec.name} exited (${proc.exitCode ?? proc.signalCode}) during start-up`);
      if (await spec.ready(proc.pid)) return proc;
      if (Date.now() > deadline) throw new Error(`${spec.name} not ready after ${READY_TIMEOUT_MS / 1000} s`);
      await Bun.sleep(50);
    }
  } catch (e) {
    proc.kill("SIGKILL");
    await proc.exited;
    const msg = e instanceof Error ? e.message : String(e);
    throw new Error(`${msg} (port ${spec.port}). Last lines of ${spec.logFile}:\n${logTail(spec.logFile)}`);
  }
}

async function terminate(proc: Subprocess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await proc.exited;
  clearTimeout(timer);
}

function logTail(file: string, lines = 15): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

// ------------------------------------------------------------------ no orphans

// Linux: setpriv --pdeathsig makes the kernel SIGTERM the server when we die,
// however we die (SIGKILL, crash, `bun test` exiting without 'exit' handlers).
// setpriv execs the server, so the pid we hold is the server's own.
// Exported for other child processes of the stack.
const SETPRIV = process.platform === "linux" ? Bun.which("setpriv") : null;
export const withDeathSignal = (cmd: string[]): string[] =>
  SETPRIV ? [SETPRIV, "--pdeathsig", "SIGTERM", "--", ...cmd] : cmd;

const live = new Set<Subprocess>();
let hooked = false;

function track(proc: Subprocess): void {
  live.add(proc);
  void proc.exited.then(() => live.delete(proc));
  if (hooked) return;
  hooked = true;
  // Belt and braces for process.exit() (and platforms without setpriv).
  // 'exit' handlers are synchronous: we can signal but not wait.
  process.on("exit", () => {
    for (const p of live) p.kill("SIGTERM");
  });
}
