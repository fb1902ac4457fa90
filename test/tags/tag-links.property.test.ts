import { expect, test } from "bun:test";
import fc from "fast-check";
import { tenant } from "../memories/memory-helpers";
import { count, memory, tag } from "./tag-helpers";

/** Model-based check of memory_count through the gateway (spec 4.2 links), bounded: 25 runs × ≤ 20 steps. */
test("random attach/detach/tag-delete sequences keep every memory_count equal to a model", async () => {
  const { api } = await tenant();
  const memories = await Promise.all(Array.from({ length: 3 }, (_, i) => memory(api, `pm${i}`)));
  const step = fc.oneof(
    fc.record({
      kind: fc.constant("attach" as const),
      m: fc.nat(2),
      t: fc.uniqueArray(fc.nat(2), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({ kind: fc.constant("detach" as const), m: fc.nat(2), t: fc.nat(2) }),
    fc.record({ kind: fc.constant("delete" as const), t: fc.nat(2) }),
  );
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), async (steps) => {
      run++;
      let gen = 0;
      const slots = await Promise.all([0, 1, 2].map((i) => tag(api, `r${run} s${i}`).then((t) => t.id)));
      const model = new Map(slots.map((id) => [id, new Set<string>()]));
      for (const s of steps) {
        if (s.kind === "attach") {
          const res = await api.post(`/v1/memories/${memories[s.m]}/tags`, { tag_ids: s.t.map((i) => slots[i]) });
          const skipped = s.t.filter((i) => model.get(slots[i]!)!.has(memories[s.m]!)).length;
          expect([res.status, res.body.data.added, res.body.data.skipped]).toEqual([
            200,
            s.t.length - skipped,
            skipped,
          ]);
          for (const i of s.t) model.get(slots[i]!)!.add(memories[s.m]!);
        } else if (s.kind === "detach") {
          const res = await api.delete(`/v1/memories/${memories[s.m]}/tags/${slots[s.t]}`);
          expect(res.body.data.removed).toBe(model.get(slots[s.t]!)!.delete(memories[s.m]!));
        } else {
          expect((await api.delete(`/v1/tags/${slots[s.t]}`)).status).toBe(200);
          model.delete(slots[s.t]!);
          slots[s.t] = (await tag(api, `r${run} s${s.t} g${++gen}`)).id;
          model.set(slots[s.t]!, new Set());
        }
        for (const [id, members] of model) expect(await count(api, id)).toBe(members.size);
      }
      // Clean slate for the next run: the model only knows this run's tags.
      for (const id of slots) await api.delete(`/v1/tags/${id}`);
      expect((await api.get("/v1/tags")).body.meta.total).toBe(0);
    }),
    { numRuns: 25 },
  );
}, 120_000);
