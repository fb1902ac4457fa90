import { createHash } from "node:crypto";
import { luaKeyspace } from "./layout";

/** The scripts (lua/<name>.lua) and whether each only reads. */
export const SCRIPTS = {
  create: false,
  update: false,
  delete: false,
  get: true,
  ancestors: true,
  list: true,
  "entity-create": false,
  "entity-update": false,
  "entity-delete": false,
  "entity-link": false,
  "entity-unlink": false,
  "entity-get": true,
  "entity-list": true,
} as const;
export type ScriptName = keyof typeof SCRIPTS;

const read = (name: string) => Bun.file(new URL(`./lua/${name}.lua`, import.meta.url)).text();
const HELPERS = await read("helpers");
const SOURCES = Object.fromEntries(await Promise.all(Object.keys(SCRIPTS).map(async (n) => [n, await read(n)] as const))) as Record<ScriptName, string>;

const luaName = (name: ScriptName) => name.replace("-", "_");

/**
 * Every script answers with one JSON string (Redis' cjson) instead of nested RESP arrays: ioredis
 * decodes each element of a nested reply in JavaScript, which was ~70% of this service's CPU for a
 * page of 20 memories; JSON.parse of the same answer is ~20 µs. Refusals stay Redis errors.
 */
const ANSWER = "local function answer(r)\n  if type(r) == 'table' and r.err then return r end\n  return cjson.encode(r)\nend\n";

/** A call's arguments after the slot: what the scripts know as `A`. */
const ARGS = "local function script_args(args)\n  local A = {}\n  for i = 2, #args do A[i - 1] = args[i] end\n  return A\nend\n";

function scriptFunction(name: ScriptName, version: string): string {
  const fn = luaName(name);
  const flags = SCRIPTS[name] ? "{ 'no-writes' }" : "{}";
  return [
    `local function ${fn}(A)`,
    SOURCES[name],
    "end",
    `redis.register_function{ function_name = 'mem_${fn}_${version}', flags = ${flags},`,
    `  callback = function(keys, args) set_slot(args[1]); return answer(${fn}(script_args(args))) end }`,
  ].join("\n");
}

/**
 * All scripts as one Redis function library, loaded once: the helpers and key templates are defined
 * once instead of on every call (as EVALSHA scripts they were re-created per call, with 28 layout
 * arguments: ~12 µs of a ~25 µs read). The library and function names carry a hash of the sources,
 * so replicas of two versions (a rolling deploy) each call their own.
 */
export function memoriesLibrary() {
  const body = [luaKeyspace(), HELPERS, ANSWER, ARGS];
  const version = createHash("sha1").update(body.join("\n") + JSON.stringify(SOURCES)).digest("hex").slice(0, 12);
  const text = [`#!lua name=memories_${version}`, ...body, ...Object.keys(SCRIPTS).map((n) => scriptFunction(n as ScriptName, version))].join("\n");
  return { name: `memories_${version}`, text, functionName: (script: ScriptName) => `mem_${luaName(script)}_${version}` };
}
