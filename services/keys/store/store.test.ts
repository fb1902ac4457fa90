import { beforeAll, describe, expect, test } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import { createKeyStore, type KeyStore } from "./";
import { keyRecordFixture } from "../record.fixture";

/** The keys store against a real Redis: records replaced by compare and set, hash pointers following them. */
const db = privateRedis("keys-store");
let redis: Redis;
let store: KeyStore;

beforeAll(async () => {
  redis = await db.connect();
  store = createKeyStore(redis);
});

const record = keyRecordFixture;

describe("replace", () => {
  test("writes only over the record as read: a write that landed meanwhile is kept", async () => {
    const rec = record();
    await store.insert(rec);
    const revoked = { ...rec, revoked_at: new Date().toISOString() };
    expect(await store.replace(rec, revoked)).toBe(true);
    expect(await store.replace(rec, { ...rec, name: "stale" })).toBe(false); // read before the revocation
    expect(await store.get(rec.tenant_id, rec.id)).toEqual(revoked);
  });

  test("a new secret's pointer is written, the replaced one's removed; a refused write leaves no pointer", async () => {
    const rec = record();
    await store.insert(rec);
    const rotated = { ...rec, hash: crypto.randomUUID() };
    expect(await store.replace(rec, rotated)).toBe(true);
    expect((await store.findByHash(rotated.hash))?.id).toBe(rec.id);
    expect(await store.findByHash(rec.hash)).toBeNull();
    const lost = { ...rec, hash: crypto.randomUUID() };
    expect(await store.replace(rec, lost)).toBe(false);
    expect(await store.findByHash(lost.hash)).toBeNull();
  });

  test("a previous secret's pointer lasts until its grace ends; the one before it goes at once", async () => {
    const rec = record();
    await store.insert(rec);
    const ends = Date.now() + 60_000;
    const first = {
      ...rec,
      hash: crypto.randomUUID(),
      previous: { hash: rec.hash, expires_at: new Date(ends).toISOString() },
    };
    expect(await store.replace(rec, first)).toBe(true);
    expect((await store.findByHash(rec.hash))?.id).toBe(rec.id);
    expect(await redis.pexpiretime(`apikey:hash:${rec.hash}`)).toBe(ends);
    expect(await redis.pttl(`apikey:hash:${first.hash}`)).toBe(-1); // the current secret's never expires
    const second = {
      ...first,
      hash: crypto.randomUUID(),
      previous: { hash: first.hash, expires_at: first.previous.expires_at },
    };
    expect(await store.replace(first, second)).toBe(true);
    expect(await store.findByHash(rec.hash)).toBeNull();
    expect((await store.findByHash(first.hash))?.id).toBe(rec.id);
  });
});

test("lastUsed: the time usage last recorded for the key, null before any", async () => {
  const rec = record();
  await store.insert(rec);
  expect(await store.lastUsed(rec.tenant_id, rec.id)).toBeNull();
  const at = new Date().toISOString();
  await store.addUsage(
    [
      {
        tenant: rec.tenant_id,
        keyId: rec.id,
        day: at.slice(0, 10),
        route: "GET /v1/tags",
        statusClass: "2xx",
        count: 1,
        rateLimited: 0,
      },
    ],
    at,
  );
  expect(await store.lastUsed(rec.tenant_id, rec.id)).toBe(at);
});

test("addUsage drops the rows of a key whose record is gone (erased), and counts the others", async () => {
  const rec = record();
  await store.insert(rec);
  const at = new Date().toISOString();
  const day = at.slice(0, 10);
  const row = (keyId: string) => ({
    tenant: rec.tenant_id,
    keyId,
    day,
    route: "GET /v1/tags",
    statusClass: "2xx",
    count: 2,
    rateLimited: 0,
  });
  const gone = crypto.randomUUID();
  await store.addUsage([row(rec.id), row(gone)], at);
  const [counters] = await store.usageDays(rec.tenant_id, [day]);
  expect(counters![`${rec.id}|GET /v1/tags|2xx`]).toBe("2");
  expect(Object.keys(counters!).filter((f) => f.startsWith(gone))).toEqual([]);
  expect(await store.lastUsed(rec.tenant_id, gone)).toBeNull();
});
