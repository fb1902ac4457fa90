import { readFileSync } from "node:fs";
import { connect as tcpConnect } from "node:net";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ServiceError } from "../contract/errors";
import { BaseConfig, loadConfig } from "./config";
import { redisTarget } from "./connect";
import { findStack, type FoundStack, type StackRecord } from "./local-stack";

/**
 * What the operator commands (`npm run keys | storage | reindex | export | import`) talk to, and how they fail.
 * Every variable that is set wins (REDIS_URL, REDIS_CLUSTER, NATS_URL, MEMORY_SERVICE_URL, PORT,
 * MEMORY_SERVICE_API_KEY, DATA_DIR); what is not set comes from the stack `npm start` runs (local-stack.ts).
 * Every failure is an OperatorError: one line saying what to start or set, never a stack trace.
 */
export class OperatorError extends Error {}

type Env = Record<string, string | undefined>;

const PROBE_TIMEOUT_MS = 2000;

export interface StackTarget {
  /** Redis, reachable (else an OperatorError, which names `orSet` as what to set instead of starting a stack). */
  redis(orSet?: string): Promise<{ url: string; cluster: boolean }>;
  /** NATS, reachable (else an OperatorError). */
  nats(orSet?: string): Promise<string>;
  /** NATS when known (set, or a running stack's), without asking whether it answers. */
  natsIfKnown(): string | null;
  /** The gateway and the key to call it with; `keyNote` says which key when it is the stack's admin key. */
  api(): { baseUrl: string; key: string; keyNote: string | null };
  /** One line when several stacks run and the latest is used, else null. */
  choiceNote(): string | null;
}

export function stackTarget(env: Env = process.env): StackTarget {
  let found: FoundStack | undefined;
  const lookup = () => (found ??= findStack(env));
  const stack = (orSet: string): StackRecord => {
    const f = lookup();
    if (f.running) return f.running;
    throw new OperatorError(noStackMessage(f, env, orSet));
  };
  const fromStack = (name: string) => (env[name] ? `check ${name}` : `is the stack still running? (or set ${name})`);
  return {
    async redis(orSet = "REDIS_URL") {
      const own = env.REDIS_URL ? null : stack(orSet);
      const url = own?.redis_url ?? env.REDIS_URL!;
      const cluster = env.REDIS_CLUSTER ? clusterSetting(env) : !!own?.redis_cluster;
      const nodes = redisTarget(url, cluster).nodes;
      if (!(await anyAnswers(nodes)))
        throw new OperatorError(`Redis at ${url} does not answer: ${fromStack("REDIS_URL")}`);
      return { url, cluster };
    },
    async nats(orSet = "NATS_URL") {
      const url = env.NATS_URL || stack(orSet).nats_url;
      if (!(await anyAnswers(natsNodes(url)))) {
        throw new OperatorError(`NATS at ${url} does not answer: ${fromStack("NATS_URL")}`);
      }
      return url;
    },
    natsIfKnown: () => env.NATS_URL || lookup().running?.nats_url || null,
    api() {
      const orSet = "MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY";
      const named = env.MEMORY_SERVICE_URL || (env.PORT ? `http://127.0.0.1:${env.PORT}` : null);
      const baseUrl = (named ?? stack(orSet).base_url).replace(/\/$/, "");
      if (env.MEMORY_SERVICE_API_KEY) return { baseUrl, key: env.MEMORY_SERVICE_API_KEY, keyNote: null };
      // The local admin key goes only to the gateway of the stack it belongs to; a PORT means a local stack.
      const own = env.MEMORY_SERVICE_URL ? lookup().running : stack(orSet);
      if (!own || own.base_url !== baseUrl) {
        throw new OperatorError(`Set MEMORY_SERVICE_API_KEY to a key with scope admin for ${baseUrl}.`);
      }
      if (!own.admin_key_file) {
        throw new OperatorError(
          "Set MEMORY_SERVICE_API_KEY to a key with scope admin (this stack's admin key is its BOOTSTRAP_ADMIN_KEY).",
        );
      }
      let key: string;
      try {
        key = readFileSync(own.admin_key_file, "utf8").trim();
      } catch (err) {
        throw new OperatorError(
          `Cannot read the admin key ${own.admin_key_file} (${(err as NodeJS.ErrnoException).code}): ` +
            "set MEMORY_SERVICE_API_KEY to a key with scope admin.",
        );
      }
      const keyNote =
        `tenant default (live) of ${baseUrl}, with the admin key in ${own.admin_key_file} ` +
        "(MEMORY_SERVICE_API_KEY picks another tenant)";
      return { baseUrl, key, keyNote };
    },
    choiceNote() {
      const f = lookup();
      if (env.DATA_DIR || f.runningCount < 2 || !f.running) return null;
      return (
        `${f.runningCount} stacks are running: using the one started last (DATA_DIR=${f.running.data_dir}); ` +
        "set DATA_DIR to choose"
      );
    },
  };
}

function noStackMessage(found: FoundStack, env: Env, orSet: string): string {
  const gone = found.stale[0];
  if (gone) {
    return (
      `No running stack: the one of DATA_DIR=${gone.data_dir} (pid ${gone.pid}) is gone; start it again with ` +
      `\`DATA_DIR=${gone.data_dir} npm start\` (or set ${orSet}).`
    );
  }
  if (env.DATA_DIR) {
    const dir = env.DATA_DIR;
    return `No running stack in DATA_DIR=${dir}: start it with \`DATA_DIR=${dir} npm start\` (or set ${orSet}).`;
  }
  return `No running stack: start one with \`npm start\` (or set DATA_DIR to its data directory, or ${orSet}).`;
}

/**
 * The environment of a command that builds a service's own pieces (reindex, migrate): this one's, with Redis and
 * NATS where they were found (the choice of stack said on stderr when several run).
 */
export async function serviceEnvOf(target: StackTarget, env: Env = process.env): Promise<Env> {
  const both = "REDIS_URL and NATS_URL";
  const [{ url, cluster }, natsUrl] = await Promise.all([target.redis(both), target.nats(both)]);
  const note = target.choiceNote();
  if (note) console.error(note);
  return { ...env, REDIS_URL: url, REDIS_CLUSTER: String(cluster), NATS_URL: natsUrl };
}

/** REDIS_CLUSTER read as every process reads it. */
function clusterSetting(env: Env): boolean {
  try {
    return loadConfig({ REDIS_CLUSTER: BaseConfig.REDIS_CLUSTER }, env).REDIS_CLUSTER;
  } catch (err) {
    throw new OperatorError((err as Error).message.replace(/\n\s*/g, " "));
  }
}

const natsNodes = (url: string) =>
  url.split(",").map((item) => {
    const u = new URL(/^\w+:\/\//.test(item.trim()) ? item.trim() : `nats://${item.trim()}`);
    return { host: u.hostname, port: Number(u.port || 4222) };
  });

/** Whether any of the nodes accepts a TCP connection: a stopped server is told apart from a slow command. */
async function anyAnswers(nodes: { host: string; port: number }[]): Promise<boolean> {
  const one = (node: { host: string; port: number }) =>
    new Promise<boolean>((done) => {
      const socket = tcpConnect(node);
      const end = (ok: boolean) => {
        socket.destroy();
        done(ok);
      };
      socket.setTimeout(PROBE_TIMEOUT_MS, () => end(false));
      socket.once("connect", () => end(true));
      socket.once("error", () => end(false));
    });
  return (await Promise.all(nodes.map(one))).some(Boolean);
}

/** A fetch whose failure to reach the gateway is one line: which URL, and what to start or set. */
export async function gatewayFetch(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const base = new URL(url).origin;
    throw new OperatorError(
      `No answer from ${base} (${(err as { code?: string }).code ?? (err as Error).message}): ` +
        "start the stack with `npm start`, or set MEMORY_SERVICE_URL.",
    );
  }
}

/** One line for any failure: an OperatorError's own, a service refusal's code and message, else the message. */
export function oneLine(err: unknown): string {
  if (err instanceof OperatorError) return err.message;
  if (err instanceof ServiceError) return `${err.code}: ${err.message} ${JSON.stringify(err.details ?? {})}`;
  const message = err instanceof Error ? err.message : String(err);
  return message.split("\n")[0]!.trim() || String(err);
}

/**
 * Runs an operator command: its result is the exit code; any failure is printed as one line on stderr (exit 1).
 * A command's own clean-up runs in its `finally` before the process exits.
 */
export async function runOperatorCommand(main: () => Promise<number | void>): Promise<never> {
  let code: number;
  try {
    code = (await main()) ?? Number(process.exitCode ?? 0);
  } catch (err) {
    process.stderr.write(`${oneLine(err)}\n`);
    code = 1;
  }
  process.exit(code);
}

/** parseArgs, with a wrong flag told in one line with the usage (exit 2) instead of a stack trace. */
export function operatorArgs<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    process.stderr.write(`${oneLine(err)} (${usage})\n`);
    process.exit(2);
  }
}
