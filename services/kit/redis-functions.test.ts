import { beforeAll, describe, expect, test } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../scripts/stack/redis.fixture";
import { ServiceError } from "../contract/errors";
import { assertOneSlot, defineLibrary, hashedPart } from "./redis-functions";

/** The loader against a real Redis, with the functions of ./redis-functions.fixture. */
const db = privateRedis("redis-functions");
const dir = new URL("./redis-functions.fixture/", import.meta.url);
const functions = { echo: "read", set: "write", refuse: "read", wrongtype: "read" } as const;
const library = await defineLibrary({ name: "fixture", dir, functions });
let redis: Redis;

beforeAll(async () => {
  redis = await db.connect();
});

const loads = async () => Number(/cmdstat_function\|load:calls=(\d+)/.exec(await redis.info("commandstats"))?.[1] ?? 0);
const rejection = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe("loading", () => {
  test("the first calls load the library once, together; a Redis that lost it gets it again", async () => {
    await redis.call("FUNCTION", "FLUSH");
    const call = library.on(redis);
    const before = await loads();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => call("echo", ["k"], [i])));
    expect(answers).toEqual(Array.from({ length: 10 }, (_, i) => ["k", String(i)]));
    expect((await loads()) - before).toBe(1);
    await redis.call("FUNCTION", "FLUSH"); // e.g. a Redis restarted without its data
    expect(await call("set", ["s"], ["v"])).toBe("OK");
    expect((await loads()) - before).toBe(2);
    expect(await redis.get("s")).toBe("v");
  });

  test("names carry a hash of the code: two versions run side by side (a rolling deploy)", async () => {
    const other = await defineLibrary({ name: "fixture", dir, shared: ["other-version.lua"], functions });
    expect(other.name).not.toBe(library.name);
    expect(other.name).toMatch(/^fixture_[0-9a-f]{12}$/);
    expect(other.functionName("echo")).toBe(`fixture_echo_${other.name.slice("fixture_".length)}`);
    expect(await library.on(redis)("echo", ["k"], ["old"])).toEqual(["k", "old"]);
    expect(await other.on(redis)("echo", ["k"], ["new"])).toEqual(["k", "new"]);
    const names = ((await redis.call("FUNCTION", "LIST")) as unknown[][]).map((l) => l[1]);
    expect(names).toContain(library.name);
    expect(names).toContain(other.name);
  });

  test("shared Lua source built by the caller is defined once, before the functions", async () => {
    const greeting = { lua: "local GREETING = 'hello'" };
    const built = await defineLibrary({ name: "built", dir, shared: [greeting], functions: { constant: "read" } });
    expect(await built.on(redis)("constant", [], [])).toBe("hello");
    const hi = { lua: "local GREETING = 'hi'" };
    const other = await defineLibrary({ name: "built", dir, shared: [hi], functions: { constant: "read" } });
    expect(other.name).not.toBe(built.name);
    expect(await other.on(redis)("constant", [], [])).toBe("hi");
  });

  test("a function declared read-only cannot write", async () => {
    const sneaky = await defineLibrary({ name: "sneaky", dir, functions: { set: "read" } });
    const err = await rejection(sneaky.on(redis)("set", ["s"], ["w"]));
    expect(String(err)).toMatch(/write commands are not allowed/i);
    expect(await redis.get("s")).not.toBe("w");
  });
});

describe("errors", () => {
  test("a refusal rejects with the contract's error of its code, message and details", async () => {
    const call = library.on(redis);
    const missing = await rejection(call("refuse", ["k"], ["missing"]));
    expect(missing).toBeInstanceOf(ServiceError);
    expect((missing as ServiceError).toBody()).toEqual({ code: "NOT_FOUND", message: "Thing not found" });
    const taken = (await rejection(call("refuse", ["k"], ["taken"]))) as ServiceError;
    expect(taken.toBody()).toEqual({
      code: "VALIDATION_ERROR",
      message: "That name is taken",
      details: { field: "name", constraint: "unique", max: 3, ids: ["a", "b"] },
    });
  });

  test("a refusal with a code the contract lacks, and any other error, reject as they are, unretried", async () => {
    const call = library.on(redis);
    const unknown = await rejection(call("refuse", ["k"], ["unknown code"]));
    expect(unknown).not.toBeInstanceOf(ServiceError);
    expect(String(unknown)).toContain("REFUSED NOT_A_CODE");
    await redis.set("str", "not a sorted set");
    const before = await loads();
    expect(String(await rejection(call("wrongtype", ["str"], [])))).toMatch(/WRONGTYPE/);
    expect(await loads()).toBe(before);
  });
});

describe("cluster slots", () => {
  test("a key's slot is decided by its first non-empty {hash tag}, else by the whole key", () => {
    expect(hashedPart("m:{acme:live}:1")).toBe("acme:live");
    expect(hashedPart("a{b}c{d}")).toBe("b");
    expect(hashedPart("a{}b{c}")).toBe("a{}b{c}");
    expect(hashedPart("plain")).toBe("plain");
    expect(hashedPart("open{only")).toBe("open{only");
  });

  test("a call whose keys span two hash tags is refused before Redis, which alone would run it", async () => {
    const call = library.on(redis);
    expect(await call("echo", ["{t}a", "{t}b"], ["1"])).toEqual(["{t}a", "1"]);
    const err = await rejection(call("echo", ["{t}a", "{u}b"], ["1"]));
    expect((err as Error).message).toContain("keys of different cluster slots ({t}a, {u}b)");
    expect(() => assertOneSlot("f", ["x", "x"])).not.toThrow();
    expect(() => assertOneSlot("f", ["x", "y"])).toThrow("keys of different cluster slots");
  });

  test("a frozen key list is remembered only once it passed: one in two slots is refused on every call", () => {
    const mixed = Object.freeze(["a:{t:live}:x", "a:{u:live}:y"]);
    for (let i = 0; i < 2; i++) expect(() => assertOneSlot("f", mixed)).toThrow("keys of different cluster slots");
    const one = Object.freeze(["a:{t:live}:x", "a:{t:live}:y"]);
    for (let i = 0; i < 2; i++) expect(() => assertOneSlot("f", one)).not.toThrow();
  });
});
