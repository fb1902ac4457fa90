import { expect, test } from "bun:test";
import fc from "fast-check";
import type { ApiClient } from "../api";
import { listAll, tenant } from "./memory-helpers";

/**
 * Property: any sequence of create / patch (re-parent, tier) / delete (with or without cascade) keeps
 * `total`, the per-tier totals, every memory's parent and every children list equal to a plain
 * in-memory model of the hierarchy.
 */
type Op =
  | { kind: "create"; parent: number; tier: string }
  | { kind: "patch"; target: number; parent: number; tier: string }
  | { kind: "delete"; target: number; cascade: boolean };

const TIERS = ["short", "medium", "long"];
const tierArb = fc.constantFrom(...TIERS);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("create" as const), parent: fc.nat(30), tier: tierArb }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("patch" as const),
      target: fc.nat(30),
      parent: fc.nat(30),
      tier: tierArb,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("delete" as const), target: fc.nat(30), cascade: fc.boolean() }),
  },
);

interface Node {
  parent: string | null;
  tier: string;
}

class Model {
  nodes = new Map<string, Node>();
  /** Ids in creation order, so an index picks the same memory in the model and the system. */
  order: string[] = [];
  pick(i: number): string | undefined {
    return this.order.length ? this.order[i % this.order.length] : undefined;
  }
  /** Index 0 (or an empty model) means "no parent". */
  pickParent(i: number): string | null {
    return i % (this.order.length + 1) === 0 ? null : this.order[(i % (this.order.length + 1)) - 1]!;
  }
  isAncestorOrSelf(ancestor: string, id: string | null): boolean {
    for (let cur = id; cur !== null; cur = this.nodes.get(cur)!.parent) if (cur === ancestor) return true;
    return false;
  }
  children(id: string) {
    return [...this.nodes]
      .filter(([, n]) => n.parent === id)
      .map(([k]) => k)
      .sort();
  }
  remove(id: string, cascade: boolean): number {
    const kids = this.children(id);
    let count = 1;
    for (const k of kids) {
      if (cascade) count += this.remove(k, true);
      else this.nodes.get(k)!.parent = null;
    }
    this.nodes.delete(id);
    this.order = this.order.filter((x) => x !== id);
    return count;
  }
}

async function step(api: ApiClient, model: Model, op: Op): Promise<void> {
  if (op.kind === "create") {
    const parent = model.pickParent(op.parent);
    const res = await api.post("/v1/memories", { content: "node", tier: op.tier, parent_memory_id: parent });
    expect(res.status).toBe(200);
    model.nodes.set(res.body.data.id, { parent, tier: op.tier });
    model.order.push(res.body.data.id);
    return;
  }
  const target = model.pick(op.target);
  if (!target) return;
  if (op.kind === "patch") {
    const parent = model.pickParent(op.parent);
    const res = await api.patch(`/v1/memories/${target}`, { parent_memory_id: parent, tier: op.tier });
    if (parent !== null && model.isAncestorOrSelf(target, parent)) {
      expect({ status: res.status, constraint: res.body.error?.details?.constraint }).toEqual({
        status: 400,
        constraint: "acyclic",
      });
    } else {
      expect(res.status).toBe(200);
      model.nodes.set(target, { parent, tier: op.tier });
    }
    return;
  }
  const res = await api.delete(`/v1/memories/${target}${op.cascade ? "?cascade=true" : ""}`);
  const count = model.remove(target, op.cascade);
  expect(res.body.data).toEqual(
    op.cascade ? { id: target, deleted: true, deleted_count: count } : { id: target, deleted: true },
  );
}

async function check(api: ApiClient, model: Model, full: boolean): Promise<void> {
  expect((await api.get("/v1/memories?limit=1")).body.meta.total).toBe(model.nodes.size);
  const roots = [...model.nodes.values()].filter((n) => n.parent === null).length;
  expect((await api.get("/v1/memories?root=true&limit=1")).body.meta.total).toBe(roots);
  if (!full) return;
  const listed = await listAll(api, "/v1/memories");
  expect(Object.fromEntries(listed.map((m) => [m.id, { parent: m.parent_memory_id, tier: m.tier }]))).toEqual(
    Object.fromEntries(model.nodes),
  );
  for (const tier of TIERS) {
    const want = [...model.nodes.values()].filter((n) => n.tier === tier).length;
    expect((await api.get(`/v1/memories?tier=${tier}&limit=1`)).body.meta.total).toBe(want);
  }
  for (const id of model.nodes.keys()) {
    const kids = (await listAll(api, `/v1/memories?parent_memory_id=${id}`)).map((m) => m.id).sort();
    expect({ id, kids }).toEqual({ id, kids: model.children(id) });
  }
}

test("random create/patch/delete sequences keep totals and children lists equal to the model", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 20 }), async (ops) => {
      const { api } = await tenant();
      const model = new Model();
      for (const op of ops) {
        await step(api, model, op);
        await check(api, model, false);
      }
      await check(api, model, true);
    }),
    { numRuns: 30 },
  );
}, 180_000);
