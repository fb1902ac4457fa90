import { expect, test } from "bun:test";
import { hashOfPairs, readMemoryHash } from "./memory-hash";
import { parseMemory, toSnapshot as snapshotOfRow } from "../memories/record";
import { toSnapshot as snapshotOfTagsRead } from "../tags/snapshot";

const HASH = {
  content: "héllo 🌍",
  content_type: "fact",
  tier: "long",
  memory_nature: "semantic",
  parent: "p1",
  external_id: "ext-1",
  metadata: '{"a":[1,{"b":null}]}',
  created_at: "1700000000000",
  updated_at: "1700000000123",
  v: "4",
};

test("readMemoryHash: every field, ISO times, version", () => {
  expect(readMemoryHash(HASH)).toEqual({
    fields: {
      content: "héllo 🌍",
      content_type: "fact",
      tier: "long",
      memory_nature: "semantic",
      parent: "p1",
      external_id: "ext-1",
      metadata: { a: [1, { b: null }] },
    },
    createdAt: "2023-11-14T22:13:20.000Z",
    updatedAt: "2023-11-14T22:13:20.123Z",
    version: 4,
  });
});

test("readMemoryHash: empty parent/external_id are none; metadata that is not an object reads as {}", () => {
  for (const metadata of ["[1]", "null", "7", "not json", ""]) {
    const r = readMemoryHash({ ...HASH, parent: "", external_id: "", metadata });
    expect(r.fields).toMatchObject({ parent: null, external_id: null, metadata: {} });
  }
  expect(readMemoryHash({}).version).toBe(0);
  expect(readMemoryHash({}).createdAt).toBe("1970-01-01T00:00:00.000Z");
});

test("hashOfPairs turns HGETALL's flat reply into an object", () => {
  expect(hashOfPairs(["a", "1", "b", ""])).toEqual({ a: "1", b: "" });
});

test("the memories service and the tags service read one stored memory into the same snapshot", () => {
  const flat = Object.entries(HASH).flat();
  const viaMemories = snapshotOfRow(
    parseMemory(["m1", flat, ["t2", "beta", "", "t1", "alpha", "#aabbcc"], ["e2", "e1"]])!,
  );
  const viaTags = snapshotOfTagsRead({
    id: "m1",
    hash: hashOfPairs(flat),
    tagIds: ["t2", "t1"],
    entityIds: ["e2", "e1"],
  });
  expect(viaTags).toEqual(viaMemories);
  expect(viaTags.tag_ids).toEqual(["t1", "t2"]);
});
