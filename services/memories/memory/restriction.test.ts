import { describe, expect, test } from "bun:test";
import { ServiceError } from "../../contract/errors";
import { fields, memoryStoreFixture, space } from "../store/store.fixture";

/** What the store tells a restricted caller's checks: the memories a write will modify besides its own. */
const fx = memoryStoreFixture("memories-store-restriction");
const { create } = fx;

const supersede = (s: ReturnType<typeof space>, life: Record<string, string>) =>
  fx.store.createMemory(s, crypto.randomUUID(), fields(), 64, life);

describe("supersession", () => {
  test("the chain's latest memory is what a create naming any of the chain modifies", async () => {
    const s = space();
    const a = await create(s);
    expect(await fx.store.supersessionHead(s, a.memory.id)).toBe(a.memory.id);
    const b = await supersede(s, { supersedes: a.memory.id });
    expect(await fx.store.supersessionHead(s, a.memory.id)).toBe(b.memory.id);
    expect(await fx.store.supersessionHead(s, crypto.randomUUID())).toBeNull();
  });

  test("a create fixed on the latest memory checked is refused once another has superseded it", async () => {
    const s = space();
    const a = await create(s);
    const b = await supersede(s, { supersedes: a.memory.id });
    const err = await supersede(s, { supersedes: a.memory.id, supersedes_head: a.memory.id }).catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.toBody()).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "supersedes" } });
    const [after] = await fx.store.getMemories(s, [b.memory.id]);
    expect(after!.memory.superseded_by).toBeNull();
    const ok = await supersede(s, { supersedes: a.memory.id, supersedes_head: b.memory.id });
    expect(ok.memory.supersedes).toBe(b.memory.id);
  });
});

describe("a delete's other changes", () => {
  test("children orphaned (not with cascade) and the memories restored as the latest", async () => {
    const s = space();
    const old = await create(s);
    const top = await supersede(s, { supersedes: old.memory.id });
    const kid = await create(s, { parent: top.memory.id });
    expect((await fx.store.removalTouches(s, top.memory.id, false))!.sort()).toEqual(
      [kid.memory.id, old.memory.id].sort(),
    );
    expect(await fx.store.removalTouches(s, top.memory.id, true)).toEqual([old.memory.id]);
    expect(await fx.store.removalTouches(s, kid.memory.id, false)).toEqual([]);
    expect(await fx.store.removalTouches(s, crypto.randomUUID(), false)).toBeNull();
  });
});
