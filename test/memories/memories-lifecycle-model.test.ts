import { expect, test } from "bun:test";
import fc from "fast-check";
import type { ApiClient } from "../api";
import { tenant } from "./memory-helpers";
import { inMs, ms, type LivedMemory } from "./lifecycle-helpers";

/**
 * Property: any sequence of creates (with an expiry, superseding a memory), expiry patches, deletes and
 * waits keeps every memory's visibility (GET, the list's total, latest_only search) and its supersession
 * fields equal to a plain model: a memory is there until it is deleted or its expires_at comes; naming a
 * memory replaces the latest still there of its chain; when the replacing memory goes, the one it
 * replaced is the latest again. Instants within MARGIN of an expiry are not judged (two clocks, and the
 * sweeper purges within a tick).
 */
type Op =
  | { kind: "create"; supersedes: number | null; expiresIn: number | null }
  | { kind: "expire"; target: number; expiresIn: number | null }
  | { kind: "delete"; target: number }
  | { kind: "wait"; ms: number };

const MARGIN = 250;
const expiry = fc.option(fc.integer({ min: 400, max: 2500 }), { nil: null, freq: 2 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("create" as const),
      supersedes: fc.option(fc.nat(20), { nil: null }),
      expiresIn: expiry,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("expire" as const), target: fc.nat(20), expiresIn: expiry }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), target: fc.nat(20) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.integer({ min: 50, max: 700 }) }) },
);

interface Node {
  id: string;
  occurredAt: string;
  expiresAt: number | null;
  deleted: boolean;
  supersedes: string | null;
  supersededBy: string | null;
  validTo: string | null;
}

class Model {
  nodes = new Map<string, Node>();
  order: string[] = [];
  pick = (i: number) => (this.order.length ? this.nodes.get(this.order[i % this.order.length]!)! : undefined);
  /** true / false, or null within MARGIN of its expiry. */
  visible(n: Node, now: number): boolean | null {
    if (n.deleted) return false;
    if (n.expiresAt === null) return true;
    if (Math.abs(n.expiresAt - now) < MARGIN) return null;
    return n.expiresAt > now;
  }
  /** Whether `n` names a replacing memory that is gone (deleted, or expired and maybe not purged yet). */
  replacedByGone(n: Node, now: number): boolean {
    return n.supersededBy !== null && this.visible(this.nodes.get(n.supersededBy)!, now) !== true;
  }
  /** The latest still-visible memory of `start`'s chain; null when anything on the way is too close to call. */
  head(start: Node, now: number): Node | null {
    let cur = start;
    for (;;) {
      if (cur.supersededBy === null) return cur;
      const next = this.nodes.get(cur.supersededBy)!;
      const v = this.visible(next, now);
      if (v === null) return null;
      if (!v) return cur;
      cur = next;
    }
  }
  /** The memory `n` replaced is the latest again (delete, purge). */
  restore(n: Node) {
    const old = n.supersedes ? this.nodes.get(n.supersedes)! : undefined;
    if (old && old.supersededBy === n.id) Object.assign(old, { supersededBy: null, validTo: null });
  }
}

async function check(api: ApiClient, model: Model) {
  const now = Date.now();
  let ambiguous = false;
  let visible = 0;
  const latest: string[] = [];
  for (const n of model.nodes.values()) {
    const v = model.visible(n, now);
    if (v === null) {
      ambiguous = true;
      continue;
    }
    const res = await api.get(`/v1/memories/${n.id}`);
    expect({ id: n.id, status: res.status }).toEqual({ id: n.id, status: v ? 200 : 404 });
    if (!v) continue;
    visible++;
    const m: LivedMemory = res.body.data;
    expect(m.supersedes).toBe(n.supersedes);
    if (model.replacedByGone(n, Date.now())) {
      // Replaced by a memory that expired: the latest again once the sweeper purged it.
      ambiguous = true;
      expect([n.supersededBy, null]).toContain(m.superseded_by);
    } else {
      expect({ id: n.id, by: m.superseded_by, to: m.valid_to }).toEqual({
        id: n.id,
        by: n.supersededBy,
        to: n.validTo,
      });
      if (n.supersededBy === null) latest.push(n.id);
    }
  }
  if (ambiguous || Date.now() - now > MARGIN) return;
  expect((await api.get("/v1/memories?limit=1")).body.meta.total).toBe(visible);
  const found = (await api.post("/v1/search", { query: "*", limit: 100, latest_only: true })).body.data.results;
  expect(found.map((r: LivedMemory) => r.id).sort()).toEqual(latest.sort());
}

test("expiry and supersession follow a plain model", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 12 }), async (ops) => {
      const { api } = await tenant();
      const model = new Model();
      for (const op of ops) {
        const now = Date.now();
        if (op.kind === "wait") {
          await Bun.sleep(op.ms);
        } else if (op.kind === "create") {
          const target = op.supersedes === null ? undefined : model.pick(op.supersedes);
          // A target (or its chain) too close to an expiry to call is left out of the op.
          const seen = target && model.visible(target, now);
          const head = seen ? model.head(target!, now) : undefined;
          const named = seen === false || (seen && head) ? target : undefined;
          const body: Record<string, unknown> = { content: "m" };
          if (named) body.supersedes = named.id;
          if (op.expiresIn !== null) body.expires_at = inMs(op.expiresIn);
          const res = await api.post("/v1/memories", body);
          if (named && model.visible(named, now) === false) {
            expect(res.status).toBe(400);
            expect(res.body.error.details).toEqual({ field: "supersedes", constraint: "exists" });
            continue;
          }
          expect(res.status).toBe(200);
          const m: LivedMemory = res.body.data;
          const node: Node = {
            id: m.id,
            occurredAt: m.occurred_at,
            expiresAt: m.expires_at ? ms(m.expires_at) : null,
            deleted: false,
            supersedes: head ? head.id : null,
            supersededBy: null,
            validTo: null,
          };
          if (head) Object.assign(head, { supersededBy: m.id, validTo: m.occurred_at });
          model.nodes.set(m.id, node);
          model.order.push(m.id);
        } else {
          const n = model.pick(op.target);
          const v = n && model.visible(n, now);
          if (!n || v === null || v === undefined) continue;
          if (op.kind === "delete") {
            const res = await api.delete(`/v1/memories/${n.id}`);
            expect(res.status).toBe(v ? 200 : 404);
            if (v) {
              n.deleted = true;
              model.restore(n);
            }
          } else {
            const expiresAt = op.expiresIn === null ? null : inMs(op.expiresIn);
            const res = await api.patch(`/v1/memories/${n.id}`, { expires_at: expiresAt });
            expect(res.status).toBe(v ? 200 : 404);
            if (v) n.expiresAt = expiresAt === null ? null : ms(expiresAt);
          }
        }
        await check(api, model);
      }
      // Once every expiry has come and the sweeper purged them, the memories they replaced are the latest again.
      const last = Math.max(Date.now(), ...[...model.nodes.values()].map((n) => n.expiresAt ?? 0));
      await Bun.sleep(last - Date.now() + 3000);
      for (const n of model.nodes.values())
        if (!n.deleted && n.expiresAt !== null) {
          n.deleted = true;
          model.restore(n);
        }
      await check(api, model);
    }),
    { numRuns: 6 },
  );
}, 300_000);
