import { createHash } from "node:crypto";
import { isErrorCode, ServiceError } from "../contract/errors";
import type { RedisClient } from "./redis-client";
import { primariesOf } from "./redis-scan";
import { confirmReplicas } from "./replica-wait";
import { acrossSlotMoves } from "./slot-moves";
import { traced, tracer } from "./tracing/tracer";

/**
 * Redis function libraries (`FUNCTION LOAD`, `FCALL`): the one way this codebase runs Lua in Redis.
 * A library is declared from .lua files, one file per function; each file is the body of a function
 * of (KEYS, ARGV), so it reads like a script. What every library follows:
 * - KEYS declares every key a function touches, in the order its file's header lists. A function
 *   that meets key names only as it runs (ids read from a set, a hierarchy walked, per-term postings)
 *   builds them from the hash tag of a declared key, so they share its cluster slot; its header says so.
 * - ARGV are strings: '' = absent for an optional value that is never empty; fields that may be
 *   absent, null or empty travel together as one JSON object (key missing = not sent, null = none).
 * - A refusal is `return refuse(code, message, details)` (redis-functions.lua) before any write; the
 *   call rejects with the contract's ServiceError of that code (refusalOf, the one place that maps it).
 */

export type Arg = string | number | Buffer;
// The client type lives in the leaf ./redis-client, which ./redis-scan and ./replica-wait import too.
export type { RedisClient } from "./redis-client";

/**
 * What a function does to the data:
 * - `read`: only reads (flag `no-writes`: Redis refuses its writes, and runs it while at maxmemory);
 * - `scratch`: reads, and writes only scratch keys it deletes before returning (flag `allow-oom`: it runs while
 *   at maxmemory, so searches go on when the data cannot grow);
 * - `write`: changes data (refused whole while at maxmemory: the client gets STORAGE_FULL).
 */
export type Access = "read" | "scratch" | "write";

const FLAGS: Record<Access, string> = { read: "'no-writes'", scratch: "'allow-oom'", write: "" };

export interface LibrarySpec<F extends string> {
  /** The library's name; the loaded one is `<name>_<hash of its code>`. */
  name: string;
  /** Folder of the function files: function `f` is `<dir>/f.lua`. */
  dir: URL;
  /**
   * Defined once at the top of the library (helpers), in order: files (names in `dir`, or URLs), or
   * Lua source built by the caller (`{ lua }`, e.g. names TypeScript uses too, so both spell them once).
   */
  shared?: (string | URL | { lua: string })[];
  functions: Record<F, Access>;
}

export type Call<F extends string> = (fn: F, keys: readonly Arg[], args: readonly Arg[]) => Promise<unknown>;

export interface FunctionLibrary<F extends string> {
  /** `<name>_<hash>`: a new deploy's library never replaces the one an old replica still calls. */
  readonly name: string;
  /** What FUNCTION LOAD gets. */
  readonly code: string;
  functionName(fn: F): string;
  /** Calls of this library on one client (a Redis or a Cluster), loading it where it is missing. */
  on(redis: RedisClient): Call<F>;
}

const PRELUDE = new URL("./redis-functions.lua", import.meta.url);
const text = (url: URL) => Bun.file(url).text();

/** Reads the files and builds the library; its name and function names carry a hash of its code. */
export async function defineLibrary<F extends string>(spec: LibrarySpec<F>): Promise<FunctionLibrary<F>> {
  const source = (f: string | URL | { lua: string }) =>
    typeof f === "object" && "lua" in f ? f.lua : text(new URL(f, spec.dir));
  const shared = await Promise.all([PRELUDE, ...(spec.shared ?? [])].map(source));
  const names = Object.keys(spec.functions) as F[];
  const bodies = await Promise.all(names.map((fn) => text(new URL(`${fn}.lua`, spec.dir))));
  const hash = createHash("sha1")
    .update(JSON.stringify([shared, names, bodies, spec.functions]))
    .digest("hex");
  const version = hash.slice(0, 12);
  // Named once: a call names its function every time.
  const called = new Map<F, string>();
  const functionName = (fn: F) => {
    let name = called.get(fn);
    if (name === undefined) called.set(fn, (name = `${spec.name}_${fn.replaceAll("-", "_")}_${version}`));
    return name;
  };
  const register = (fn: F, body: string) =>
    [
      `redis.register_function{ function_name = '${functionName(fn)}',`,
      `  flags = { ${FLAGS[spec.functions[fn]]} },`,
      "  callback = function(KEYS, ARGV)",
      body,
      "end }",
    ].join("\n");
  const name = `${spec.name}_${version}`;
  const code = [`#!lua name=${name}`, ...shared, ...names.map((fn, i) => register(fn, bodies[i]!))].join("\n");
  return {
    name,
    code,
    functionName,
    on: (redis) => tracedCalls(spec.name, caller(redis, code, functionName, spec.functions)),
  };
}

const MISSING = /function not found/i;

/** Outside production every call checks its keys (cheap next to a round trip); production trusts the tests. */
const CHECK_SLOTS = process.env.NODE_ENV !== "production";

/** What Redis Cluster hashes to pick a key's slot: the first non-empty `{…}` of the key, else the whole key. */
export function hashedPart(key: string): string {
  const open = key.indexOf("{");
  const close = open < 0 ? -1 : key.indexOf("}", open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/**
 * A function's keys must live in one cluster slot, or a Redis Cluster refuses the call (CROSSSLOT) while
 * a single Redis runs it: so a single-node test run catches what only a cluster would. Keys of one slot
 * share their hashed part (one hash tag) by this codebase's rule.
 */
export function assertOneSlot(fn: string, keys: readonly Arg[]): void {
  if (keys.length < 2 || (Object.isFrozen(keys) && checked.has(keys))) return;
  const first = hashedPart(String(keys[0]));
  const other = keys.find((k) => hashedPart(String(k)) !== first);
  if (other !== undefined) throw new Error(`${fn}: keys of different cluster slots (${keys[0]}, ${other})`);
  if (Object.isFrozen(keys)) checked.add(keys);
}

/**
 * Frozen key lists found in one slot: a store that names a space's keys once (a frozen list) passes the same
 * list on every call, and checking its ten keys each time showed in a read's profile.
 */
const checked = new WeakSet<readonly Arg[]>();

/**
 * Each call in a client span while tracing is on, named after the library and function (never its keys or
 * arguments: they name tenants and hold content).
 */
function tracedCalls<F extends string>(library: string, call: Call<F>): Call<F> {
  return (fn, keys, args) => {
    const t = tracer();
    if (t === null) return call(fn, keys, args);
    const procedure = `${library}.${fn}`;
    const attributes = {
      "db.system.name": "redis",
      "db.operation.name": "FCALL",
      "db.stored_procedure.name": procedure,
    };
    return traced(t, `FCALL ${procedure}`, { kind: "client", attributes }, () => call(fn, keys, args));
  };
}

function caller<F extends string>(
  redis: RedisClient,
  code: string,
  functionName: (fn: F) => string,
  access: Record<F, Access>,
): Call<F> {
  let loading: Promise<unknown> | null = null;
  /** Loads completed so far: a call sent before the latest one finished needs no load of its own. */
  let loads = 0;
  /** Calls that miss the library together share one load. */
  const load = () =>
    (loading ??= loadEverywhere(redis, code).finally(() => {
      loads++;
      loading = null;
    }));
  const fcall = async (fn: F, keys: readonly Arg[], args: readonly Arg[]) => {
    if (CHECK_SLOTS) assertOneSlot(functionName(fn), keys);
    const reply = await acrossSlotMoves(() => redis.fcall(functionName(fn), keys.length, ...keys, ...args));
    if (access[fn] === "write" && keys.length > 0) await confirmReplicas(redis, String(keys[0]));
    return reply;
  };
  return async (fn, keys, args) => {
    const loadsBefore = loads;
    try {
      return await fcall(fn, keys, args);
    } catch (err) {
      if (!MISSING.test((err as Error).message ?? "")) throw refusalOf(err) ?? err;
      if (loads === loadsBefore) await load();
      try {
        return await fcall(fn, keys, args);
      } catch (again) {
        throw refusalOf(again) ?? again;
      }
    }
  };
}

/**
 * A Redis that lacks the library (first use, restarted without data, flushed) gets it. A library
 * lives on each primary of a cluster (its replicas get it by replication), and an FCALL routed to a
 * shard without it fails: so it goes to every primary, a shard added later included.
 */
async function loadEverywhere(redis: RedisClient, code: string): Promise<void> {
  await Promise.all((await primariesOf(redis)).map((node) => node.call("FUNCTION", "LOAD", "REPLACE", code)));
}

const REFUSED = /^REFUSED ([A-Z_]+) (.*)$/s;

/** `REFUSED <code> {"message", "details"}` (refuse() in redis-functions.lua) → that ServiceError. */
export function refusalOf(err: unknown): ServiceError | null {
  const m = REFUSED.exec((err as Error)?.message ?? "");
  if (!m || !isErrorCode(m[1])) return null;
  try {
    const { message, details } = JSON.parse(m[2]!) as { message: string; details?: Record<string, unknown> };
    return new ServiceError(m[1], message, details);
  } catch {
    return null; // not refuse()'s shape: the error goes on as it is
  }
}
