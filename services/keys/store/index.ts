import { execBatch } from "../../kit/slot-moves";
import type { RedisClient } from "../../kit/redis-functions";
import type { UsageRow } from "../../contract/usage";
import { keysLibrary } from "../lua/library";
import { globLiteral, scanKeys } from "../../kit/redis-scan";
import { hashesOf, type KeyRecord } from "../record";
import type { SigningSecrets } from "../signing";

/**
 * The only code of the keys service that touches Redis.
 * - `apikey:{tenant}:<id>`      JSON record (never the secret; its SHA-256 only)
 * - `apikeys:{tenant}`          sorted set of key ids by creation time (listing)
 * - `apikeys:{tenant}:used`     hash id → last-used ISO time (written off the hot path)
 * - `apikey:hash:<sha256>`      "tenant id" pointer for lookup by hash; written after the record, so a
 *                               half-finished create never authenticates. A rotated key's previous secret
 *                               keeps its pointer until its grace ends (the pointer expires then).
 * - `apikey:id:<id>`           tenant of a key id, so the root key can manage keys it minted elsewhere
 * - `usage:{tenant}:<day>`      hash "<keyId>|<route>|<status class>" → count
 * - `tokens:signing`            JSON {current, previous}: the secrets browser tokens are signed with
 */
const recordKey = (tenant: string, id: string) => `apikey:{${tenant}}:${id}`;
const listKey = (tenant: string) => `apikeys:{${tenant}}`;
const usedKey = (tenant: string) => `apikeys:{${tenant}}:used`;
const hashKey = (hash: string) => `apikey:hash:${hash}`;
const idKey = (id: string) => `apikey:id:${id}`;
const usageKey = (tenant: string, day: string) => `usage:{${tenant}}:${day}`;
const ROOT_POINTER = "apikey:root";
const SIGNING_KEY = "tokens:signing";
const USAGE_TTL_S = 400 * 24 * 3600;

export function createKeyStore(redis: RedisClient) {
  const call = keysLibrary.on(redis);
  return {
    async insert(rec: KeyRecord): Promise<void> {
      await execBatch(() =>
        redis
          .multi()
          .set(recordKey(rec.tenant_id, rec.id), JSON.stringify(rec))
          .zadd(listKey(rec.tenant_id), Date.parse(rec.created_at), rec.id),
      );
      await redis.set(idKey(rec.id), rec.tenant_id);
      await redis.set(hashKey(rec.hash), `${rec.tenant_id} ${rec.id}`);
    },

    async tenantOf(id: string): Promise<string | null> {
      return redis.get(idKey(id));
    },

    async get(tenant: string, id: string): Promise<KeyRecord | null> {
      const raw = await redis.get(recordKey(tenant, id));
      return raw ? (JSON.parse(raw) as KeyRecord) : null;
    },

    async update(rec: KeyRecord): Promise<void> {
      await redis.set(recordKey(rec.tenant_id, rec.id), JSON.stringify(rec));
    },

    /**
     * Writes `after` in place of `before` if the stored record is still `before` (records are written by
     * JSON.stringify, so a parsed one stringifies back to the same text); false if it changed meanwhile.
     * The hash pointers follow: a new secret's is written before the record (until the record holds its
     * hash it authenticates nothing), a secret the record no longer holds loses its pointer, and the
     * previous secret's pointer expires when its grace ends.
     */
    async replace(before: KeyRecord, after: KeyRecord): Promise<boolean> {
      const pointer = `${after.tenant_id} ${after.id}`;
      const added = hashesOf(after).filter((h) => !hashesOf(before).includes(h));
      const dropped = hashesOf(before).filter((h) => !hashesOf(after).includes(h));
      // One command per pointer: they live in different cluster slots.
      await Promise.all(added.map((h) => redis.set(hashKey(h), pointer)));
      const keys = [recordKey(before.tenant_id, before.id)];
      const replaced = (await call("replace", keys, [JSON.stringify(before), JSON.stringify(after)])) === 1;
      if (!replaced) {
        await Promise.all(added.map((h) => redis.del(hashKey(h))));
        return false;
      }
      await Promise.all(dropped.map((h) => redis.del(hashKey(h))));
      if (after.previous) await redis.pexpireat(hashKey(after.previous.hash), Date.parse(after.previous.expires_at));
      return true;
    },

    async findByHash(hash: string): Promise<KeyRecord | null> {
      const pointer = await redis.get(hashKey(hash));
      if (!pointer) return null;
      const [tenant, id] = pointer.split(" ");
      return this.get(tenant!, id!);
    },

    async lastUsed(tenant: string, id: string): Promise<string | null> {
      return redis.hget(usedKey(tenant), id);
    },

    async page(
      tenant: string,
      offset: number,
      limit: number,
    ): Promise<{ records: KeyRecord[]; lastUsed: (string | null)[]; total: number }> {
      const [ids, total] = await Promise.all([
        redis.zrevrange(listKey(tenant), offset, offset + limit - 1),
        redis.zcard(listKey(tenant)),
      ]);
      if (ids.length === 0) return { records: [], lastUsed: [], total };
      const [raws, used] = await Promise.all([
        redis.mget(ids.map((id) => recordKey(tenant, id))),
        redis.hmget(usedKey(tenant), ...ids),
      ]);
      const records: KeyRecord[] = [];
      const lastUsed: (string | null)[] = [];
      raws.forEach((raw, i) => {
        if (!raw) return;
        records.push(JSON.parse(raw) as KeyRecord);
        lastUsed.push(used[i] ?? null);
      });
      return { records, lastUsed, total };
    },

    /** The signing secrets; `fresh` (generated by the caller) becomes them if there are none yet. */
    async signingSecrets(fresh: SigningSecrets): Promise<SigningSecrets> {
      await redis.set(SIGNING_KEY, JSON.stringify(fresh), "NX");
      return JSON.parse((await redis.get(SIGNING_KEY))!) as SigningSecrets;
    },

    /** Writes `after` in place of `before` if the secrets are still `before` (compare and set). */
    async replaceSigningSecrets(before: SigningSecrets, after: SigningSecrets): Promise<boolean> {
      return (await call("replace", [SIGNING_KEY], [JSON.stringify(before), JSON.stringify(after)])) === 1;
    },

    async rootPointer(): Promise<string | null> {
      return redis.get(ROOT_POINTER);
    },
    async setRootPointer(value: string): Promise<void> {
      await redis.set(ROOT_POINTER, value);
    },

    /**
     * Adds a batch of usage rows, fields summed with HINCRBY: one pipeline per tenant, since a pipeline
     * stays within one cluster slot (a tenant's usage keys share its hash tag). Rows of a key whose record is
     * gone are dropped: a batch counted before an erase may arrive after it, and must not bring its counters back.
     */
    async addUsage(rows: UsageRow[], nowIso: string): Promise<void> {
      const byTenant = Map.groupBy(rows, (row) => row.tenant);
      await Promise.all(
        [...byTenant].map(async ([tenant, tenantRows]) => {
          const ids = [...new Set(tenantRows.map((row) => row.keyId))];
          const found = await redis.mget(ids.map((id) => recordKey(tenant, id)));
          const live = new Set(ids.filter((_, i) => found[i] !== null));
          const pipe = redis.pipeline();
          for (const row of tenantRows) {
            if (!live.has(row.keyId)) continue;
            const key = usageKey(tenant, row.day);
            pipe.hincrby(key, `${row.keyId}|${row.route}|${row.statusClass}`, row.count);
            if (row.rateLimited > 0) pipe.hincrby(key, `${row.keyId}|${row.route}|429`, row.rateLimited);
            pipe.expire(key, USAGE_TTL_S);
            pipe.hset(usedKey(tenant), row.keyId, nowIso);
          }
          return pipe.exec();
        }),
      );
    },

    /**
     * One step of erasing a tenant environment's keys (contract/erase.ts): up to `budget` keys of `env`, but never
     * the root key. Usage counters go first, so a step cut short still finds, by its record, each key whose counters
     * may be left. Answers the records erased.
     */
    async eraseEnvironment(
      tenant: string,
      env: string,
      budget: number,
    ): Promise<{ erased: KeyRecord[]; done: boolean }> {
      const ids = await redis.zrange(listKey(tenant), "0", "-1");
      const raws = ids.length === 0 ? [] : await redis.mget(ids.map((id) => recordKey(tenant, id)));
      const all = raws.flatMap((raw) => (raw ? [JSON.parse(raw) as KeyRecord] : []));
      const matching = all.filter((r) => r.environment === env && !r.root);
      const erased = matching.slice(0, budget);
      if (erased.length === 0) return { erased, done: true };
      const prefixes = erased.map((r) => `${r.id}|`);
      for await (const keys of scanKeys(redis, `usage:${globLiteral(`{${tenant}}`)}:*`)) {
        for (const key of keys) {
          const fields = (await redis.hkeys(key)).filter((f) => prefixes.some((p) => f.startsWith(p)));
          if (fields.length > 0) await redis.hdel(key, ...fields);
        }
      }
      for (const rec of erased) {
        await Promise.all(hashesOf(rec).map((h) => redis.del(hashKey(h))));
        await redis.del(idKey(rec.id));
        await redis.multi().hdel(usedKey(tenant), rec.id).zrem(listKey(tenant), rec.id).exec();
        await redis.del(recordKey(tenant, rec.id));
      }
      return { erased, done: erased.length === matching.length };
    },

    async usageDays(tenant: string, days: string[]): Promise<Record<string, string>[]> {
      return (await execBatch(() => {
        const pipe = redis.pipeline();
        for (const day of days) pipe.hgetall(usageKey(tenant, day));
        return pipe;
      })) as Record<string, string>[];
    },
  };
}

export type KeyStore = ReturnType<typeof createKeyStore>;
