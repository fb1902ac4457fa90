import { beforeAll, expect, test } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../scripts/stack/redis.fixture";
import type { Space } from "../kit/space";
import { keyspace } from "./keyspace";
import { MEMORY_DATA_LUA } from "./lua";

/** keyspace.lua, run in a real Redis atop a library as the services load it, against keyspace.ts itself. */
const db = privateRedis("keyspace-lua");
let redis: Redis;
beforeAll(async () => {
  redis = await db.connect();
  const lib = [
    "#!lua name=keyspace_test",
    ...(await Promise.all(MEMORY_DATA_LUA.map((url) => Bun.file(url).text()))),
    "redis.register_function{ function_name = 'keyspace_keys', flags = { 'no-writes' },",
    "  callback = function(keys, args)",
    "  use_tenant_of(keys[1])",
    "  local id = args[1]",
    "  return { TK.memory(id), TK.memory_tags(id), TK.memory_kids(id), TK.memory_entities(id), TK.tag(id),",
    "    TK.tag_members(id), TK.entity(id), TK.entity_members(id), TK.by_field('content_type', id),",
    "    TK.by_field('tier', id), TK.by_field('memory_nature', id) }",
    "end }",
  ].join("\n");
  await redis.call("FUNCTION", "LOAD", "REPLACE", lib);
});

const expected = (space: Space, id: string) => {
  const ks = keyspace(space);
  return [
    ks.memory(id),
    ks.memoryTags(id),
    ks.memoryKids(id),
    ks.memoryEntities(id),
    ks.tag(id),
    ks.tagMembers(id),
    ks.entity(id),
    ks.entityMembers(id),
    ks.byField("content_type", id),
    ks.byField("tier", id),
    ks.byField("memory_nature", id),
  ];
};

const SPACES: Space[] = [
  { tenant: "acme", env: "test" },
  { tenant: "live:acme", env: "live" },
  { tenant: "a{b}", env: "live" },
  { tenant: "a}:x:{b", env: "test" },
];

test("the Lua key names are exactly keyspace.ts', read from any declared tenant key", async () => {
  for (const space of SPACES) {
    const ks = keyspace(space);
    const id = crypto.randomUUID();
    for (const declared of [ks.byCreated, ks.roots, ks.externalIds, ks.tagNames, ks.entitiesByCreated]) {
      expect(await redis.fcall("keyspace_keys", 1, declared, id)).toEqual(expected(space, id));
    }
  }
});

test("the tenant is per call: two tenants in a row never mix", async () => {
  const a: Space = { tenant: "a", env: "live" };
  const b: Space = { tenant: "b", env: "live" };
  expect(await redis.fcall("keyspace_keys", 1, keyspace(a).byCreated, "1")).toEqual(expected(a, "1"));
  expect(await redis.fcall("keyspace_keys", 1, keyspace(b).byCreated, "1")).toEqual(expected(b, "1"));
});
