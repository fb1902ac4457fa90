import { expect, test } from "bun:test";
import { snapshotOfMemory } from "../../contract/events";
import { snapshotOfHash } from "../../memory-data/memory-hash";
import { STORED_MEMORY_HASH } from "../../memory-data/memory-hash.fixture";
import { parseEntity, parseMemory } from "./record";

const flat = (o: Record<string, string>) => Object.entries(o).flat();

test("parseMemory: nulls for absent parent/external_id, tags sorted by name, entity ids sorted", () => {
  const row = parseMemory([
    "m1",
    flat({
      content: "c",
      content_type: "text",
      tier: "long",
      memory_nature: "semantic",
      metadata: '{"a":1}',
      created_at: "1700000000000",
      updated_at: "1700000000123",
      v: "7",
    }),
    ["t2", "beta", "", "t1", "Alpha", "#aabbcc", "t3", "alpha", ""],
    ["e2", "e1"],
  ])!;
  expect(row.version).toBe(7);
  expect(row.memory).toEqual({
    id: "m1",
    content: "c",
    content_type: "text",
    tier: "long",
    memory_nature: "semantic",
    parent_memory_id: null,
    external_id: null,
    metadata: { a: 1 },
    tags: [
      { id: "t1", name: "Alpha", color: "#aabbcc" },
      { id: "t3", name: "alpha", color: null },
      { id: "t2", name: "beta", color: null },
    ],
    entity_ids: ["e1", "e2"],
    created_at: "2023-11-14T22:13:20.000Z",
    updated_at: "2023-11-14T22:13:20.123Z",
    occurred_at: "2023-11-14T22:13:20.000Z",
    expires_at: null,
    supersedes: null,
    superseded_by: null,
    valid_to: null,
  });
  expect(snapshotOfMemory(row.memory, row.version)).toMatchObject({
    id: "m1",
    tag_ids: ["t1", "t2", "t3"],
    entity_ids: ["e1", "e2"],
    version: 7,
  });
  expect(parseMemory(null)).toBeNull();
});

test("parseEntity: description null when absent; memory_count from the member count", () => {
  expect(
    parseEntity([
      "e1",
      flat({ name: "Ada", type: "person", nk: "person:ada", metadata: "{}", created_at: "0", updated_at: "0" }),
      3,
    ]),
  ).toEqual({
    id: "e1",
    name: "Ada",
    type: "person",
    description: null,
    metadata: {},
    memory_count: 3,
    created_at: "1970-01-01T00:00:00.000Z",
    updated_at: "1970-01-01T00:00:00.000Z",
  });
});

test("the memories service and the tags service read one stored memory into the same snapshot", () => {
  const hash = STORED_MEMORY_HASH;
  const row = parseMemory(["m1", flat(hash), ["t2", "beta", "", "t1", "alpha", "#aabbcc"], ["e2", "e1"]])!;
  const viaTags = snapshotOfHash("m1", hash, ["t2", "t1"], ["e2", "e1"]);
  expect(viaTags).toEqual(snapshotOfMemory(row.memory, row.version));
  expect(viaTags.tag_ids).toEqual(["t1", "t2"]);
});
