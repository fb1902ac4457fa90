import { expect, test } from "bun:test";
import fc from "fast-check";
import { keyspace } from "../../memory-data/keyspace";
import { createTagStore } from "../store";
import { tagHandlers } from "./tags";
import { linkHandlers } from "./links";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import { ctxFor, newSpace, recordingNotifier, writeMemoryHashForTests } from "./handler.fixture";

const db = privateRedis("tags-links-property");

const MEMORIES = 4;
const TAGS = 4;
const step = fc.oneof(
  fc.record({
    kind: fc.constant("attach" as const),
    m: fc.nat(MEMORIES - 1),
    t: fc.uniqueArray(fc.nat(TAGS - 1), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant("detach" as const), m: fc.nat(MEMORIES - 1), t: fc.nat(TAGS - 1) }),
  fc.record({ kind: fc.constant("delete" as const), t: fc.nat(TAGS - 1) }),
);

// Service level, straight on Redis: also checks both link ends agree, which the HTTP API cannot see.
test("random attach/detach/delete sequences keep memory_count and both link ends equal to a model", async () => {
  const redis = await db.connect();
  const store = createTagStore(redis);
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), async (steps) => {
      const space = newSpace();
      const ks = keyspace(space);
      const ctx = ctxFor(space);
      const { notify } = recordingNotifier();
      const tags = tagHandlers({ store, notify });
      const links = linkHandlers({ store, notify });
      const memories = await Promise.all(Array.from({ length: MEMORIES }, () => writeMemoryHashForTests(redis, space)));
      // Slot i holds a live tag; a deleted one is replaced by a fresh tag, so every step has a target.
      const slots: string[] = [];
      for (let i = 0; i < TAGS; i++) slots.push((await tags.create({ name: `tag ${i}` }, ctx)).id);
      const model = new Map(slots.map((id) => [id, new Set<string>()]));
      let generation = 0;

      for (const s of steps) {
        if (s.kind === "attach") {
          const ids = s.t.map((i) => slots[i]!);
          const before = ids.filter((id) => model.get(id)!.has(memories[s.m]!)).length;
          const res = await links.attach({ memory_id: memories[s.m]!, tag_ids: ids }, ctx);
          expect([res.added, res.skipped]).toEqual([ids.length - before, before]);
          for (const id of ids) model.get(id)!.add(memories[s.m]!);
        } else if (s.kind === "detach") {
          const id = slots[s.t]!;
          const res = await links.detach({ memory_id: memories[s.m]!, tag_id: id }, ctx);
          expect(res.removed).toBe(model.get(id)!.delete(memories[s.m]!));
        } else {
          await tags.remove({ id: slots[s.t]! }, ctx);
          model.delete(slots[s.t]!);
          slots[s.t] = (await tags.create({ name: `tag ${s.t} v${++generation}` }, ctx)).id;
          model.set(slots[s.t]!, new Set());
        }
        for (const [id, members] of model) {
          expect((await tags.get({ id }, ctx)).memory_count).toBe(members.size);
          expect((await redis.zrange(ks.tagMembers(id), "0", "-1")).sort()).toEqual([...members].sort());
        }
        for (const m of memories) {
          const expected = [...model].filter(([, members]) => members.has(m)).map(([id]) => id);
          expect((await redis.smembers(ks.memoryTags(m))).sort()).toEqual(expected.sort());
        }
      }
      expect((await tags.list({}, ctx)).total).toBe(TAGS);
    }),
    { numRuns: 25 },
  );
});
