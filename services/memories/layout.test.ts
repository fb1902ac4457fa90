import { beforeAll, expect, test } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../scripts/stack/test-redis";
import { keyspace, slot, type Space } from "../kit/keyspace";
import { luaKeyspace } from "./layout";

/** The generated key templates, run in a real Redis, against keyspace.ts itself. */
const db = privateRedis("memories-layout");
let redis: Redis;
beforeAll(async () => {
  redis = await db.connect();
  const lib = [
    "#!lua name=layout_test",
    luaKeyspace(),
    "redis.register_function{ function_name = 'layout_keys', flags = { 'no-writes' }, callback = function(keys, args)",
    "  set_slot(args[1])",
    "  local id = args[2]",
    "  return { K.created, K.updated, K.roots, K.ext, K.entNames, K.entCreated, K.memory(id), K.tags(id), K.kids(id), K.ents(id),",
    "    K.tag(id), K.tagMembers(id), K.entity(id), K.entMembers(id), K.content_type(id), K.tier(id), K.memory_nature(id) }",
    "end }",
  ].join("\n");
  await redis.call("FUNCTION", "LOAD", "REPLACE", lib);
});

const expected = (space: Space, id: string) => {
  const ks = keyspace(space);
  return [
    ks.byCreated, ks.byUpdated, ks.roots, ks.externalIds, ks.entityNames, ks.entitiesByCreated,
    ks.memory(id), ks.memoryTags(id), ks.memoryKids(id), ks.memoryEntities(id), ks.tag(id), ks.tagMembers(id),
    ks.entity(id), ks.entityMembers(id), ks.byField("content_type", id), ks.byField("tier", id), ks.byField("memory_nature", id),
  ];
};

test("the Lua key templates build exactly keyspace.ts' key names, for any tenant and environment", async () => {
  for (const space of [{ tenant: "acme", env: "test" }, { tenant: "live:acme", env: "live" }, { tenant: "a{b}", env: "live" }] as Space[]) {
    const id = crypto.randomUUID();
    expect(await redis.fcall("layout_keys", 0, slot(space), id)).toEqual(expected(space, id));
  }
});

test("every key of a call carries the tenant's hash tag (one cluster slot)", async () => {
  const keys = (await redis.fcall("layout_keys", 0, slot({ tenant: "acme", env: "test" }), "x")) as string[];
  for (const k of keys) expect(k).toContain("{acme:test}");
});

test("the slot is per call: two tenants in a row never mix", async () => {
  const a = (await redis.fcall("layout_keys", 0, slot({ tenant: "a", env: "live" }), "1")) as string[];
  const b = (await redis.fcall("layout_keys", 0, slot({ tenant: "b", env: "live" }), "1")) as string[];
  expect(a).toEqual(expected({ tenant: "a", env: "live" }, "1"));
  expect(b).toEqual(expected({ tenant: "b", env: "live" }, "1"));
});
