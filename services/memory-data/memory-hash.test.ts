import { expect, test } from "bun:test";
import { readMemoryHash, snapshotOfHash } from "./memory-hash";
import { STORED_MEMORY_HASH } from "./memory-hash.fixture";

const HASH = STORED_MEMORY_HASH;

test("readMemoryHash: every field (text as stored, metadata parsed), ISO times, version", () => {
  const { content, content_type, tier, memory_nature, parent, external_id } = HASH;
  expect(readMemoryHash(HASH)).toEqual({
    fields: { content, content_type, tier, memory_nature, parent, external_id, metadata: { a: [1, { b: null }] } },
    lifecycle: {
      occurredAt: "1969-12-31T00:00:00.000Z",
      expiresAt: "2027-01-15T08:00:00.000Z",
      supersedes: "old-1",
      supersededBy: "new-1",
      validTo: "2023-11-14T22:13:20.500Z",
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

test("readMemoryHash: without lifecycle fields a memory occurred when it was created and lasts", () => {
  const { occurred_at: _o, expires_at: _e, supersedes: _s, superseded_by: _b, valid_to: _v, ...plain } = HASH;
  expect(readMemoryHash(plain).lifecycle).toEqual({
    occurredAt: "2023-11-14T22:13:20.000Z",
    expiresAt: null,
    supersedes: null,
    supersededBy: null,
    validTo: null,
  });
});

test("snapshotOfHash tolerates absent optional fields and bad metadata, and sorts link ids", () => {
  const hash = { content: "c", metadata: "[1]", created_at: "0", updated_at: "0" };
  expect(snapshotOfHash("m", hash, ["t2", "t1"], ["e2", "e1"])).toMatchObject({
    parent_memory_id: null,
    external_id: null,
    metadata: {},
    tag_ids: ["t1", "t2"],
    entity_ids: ["e1", "e2"],
    version: 0,
  });
});
