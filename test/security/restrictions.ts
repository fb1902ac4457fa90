import { beforeAll, expect, test } from "bun:test";
import { testStack } from "../harness";
import { Failures, sameAnswer, usedFields } from "./compare";
import { bare, MEMORY_FIELDS, unknownIds, type Ids } from "./ids";
import { allCases, type Case, type Outcome, type Surface } from "./operations";
import { KINDS, OUTSIDE_SECRET, seedKind, type Kind, type KindWorld } from "./seed";
import { changes, outsideIds, snapshot, type Snapshot } from "./snapshot";
import { badCounts, leaks } from "./answer-checks";
import { counts } from "./summary";
import { eventsSeenByA } from "./events";
import { unfilteredReads } from "./unfiltered";

/**
 * Restricted tokens on every operation, for every restriction kind. A token of user A, with every id argument
 * pointed at user B's things (one at a time, then all at once) and at A's things where links cross into B's,
 * can neither read, change, delete, link, replay, count nor learn the existence of anything of B:
 * - read / learn: no answer holds B's content, B's memory ids or B's external ids (apart from ids the request
 *   itself sent), and an argument naming B's memory (an id or an external id) answers exactly as one naming
 *   nothing;
 * - change / delete / link: B's memories (every field: tags, entities, supersession links, version), and the
 *   records of the tags and entities they carry, are the same after each request (the key's snapshot), and
 *   A's writes stay inside A (nothing created or moved outside);
 * - replay: A's request with the Idempotency-Key of B's token's same request answers as with a fresh key;
 * - count: every count in an answer counts A's memories only. A list's `total` is the number of items it
 *   shows (when they fit in one page), and a tag's or entity's `memory_count` is the number of A's memories
 *   carrying it. Tag and entity records themselves are the tenant's vocabulary, readable by any token (as
 *   docs/api.md says), so naming B's tag is no leak: what they count is.
 * Operations a token can never run (admin, tokens:create) are 403 whatever they name.
 */
const TOKEN_SCOPES = ["memories:read", "memories:write", "search:read"];
const VOCABULARY = ["tag", "tagName", "entity"] as const;

export function restrictionTests() {
  let cases: Case[];
  beforeAll(async () => {
    const { baseUrl, adminKey } = await testStack();
    const { newTenant } = await import("../api");
    cases = await allCases(baseUrl, (await newTenant(baseUrl, adminKey)).key);
  });

  for (const kind of KINDS) {
    let w: KindWorld;
    beforeAll(async () => {
      w = await seedKind(kind);
    }, 60_000);
    test(`${kind}: the unfiltered reads of A show and count A's memories only`, async () => {
      const failures = await unfilteredReads(w, cases);
      await cleanup(w);
      if (failures.length) console.log(failures.join("\n"));
      expect(failures).toEqual([]);
    });
    test(`${kind}: a memoryEvents stream of A carries A's events and none of B's`, async () => {
      const { leaked, sawA } = await eventsSeenByA(w);
      await cleanup(w);
      expect(leaked).toEqual([]);
      expect(sawA).toBe(true);
    });
    for (const surface of ["rest", "graphql", "mcp", "stream"] as const) {
      test(`${kind}: a token of A reaches nothing of B through ${surface}`, async () => {
        const failures = new Failures();
        const mine = cases.filter((c) => c.surface === surface);
        for (const c of mine) await runCase(w, c, failures);
        counts.restricted(kind, surface, mine.length);
        if (failures.lines.length) console.log(failures.message());
        expect(failures.lines).toEqual([]);
      }, 120_000);
    }
  }
}

async function runCase(w: KindWorld, c: Case, f: Failures) {
  const fx = await w.fixtures();
  let before = await snapshot(w.api);
  const label = `${w.kind} token`;
  /** One request of A's token; then B's data compared with the snapshot before it. */
  const send = async (what: string, ids: Ids, headers?: Record<string, string>, credential = w.tokenA) => {
    const request = c.build(ids);
    const o = await c.send(credential, request, headers);
    counts.restrictedRequests++;
    if (process.env.SECURITY_DEBUG)
      console.log(`${w.kind} ${c.name} ${what}: ${o.status} ${o.code} ${o.text.slice(0, 300)}`);
    const after = await snapshot(w.api);
    const outside = outsideIds(w, before);
    const problems = [
      ...leaks(o, JSON.stringify(request), outside),
      ...changes(w, before, after),
      ...(o.code === "OK" ? badCounts(w, after, o.body) : []),
      ...(o.status >= 500 ? [`answered ${o.status}`] : []),
    ];
    for (const p of problems) f.add(c, `${label}, ${what}`, `${p} (answer ${o.status} ${o.code} ${o.message})`);
    before = after;
    return o;
  };
  /** Sends without checking (B's own writes), and starts the comparison again after it. */
  const unchecked = async (ids: Ids, headers: Record<string, string>, credential: string) => {
    await c.send(credential, c.build(ids), headers);
    before = await snapshot(w.api);
  };
  try {
    if (!TOKEN_SCOPES.includes(c.scope)) {
      const o = await send("an operation tokens never hold", fx.outside);
      if (o.code !== "FORBIDDEN" || !o.message.includes(c.scope))
        f.add(c, label, `expected 403: ${o.status} ${o.code}`);
      return;
    }
    const unknown = unknownIds();
    const used = usedFields(c, unknown);
    // One argument at a time: A's own ids in the required ones, the optional ones left out.
    const only = (field: keyof Ids, from: Ids): Ids => ({ ...bare(fx.inside), [field]: from[field] });
    // One of B's memories named where A's are: as if it did not exist.
    for (const field of used.filter((x) => (MEMORY_FIELDS as readonly string[]).includes(x))) {
      const theirs = only(field, fx.outside);
      const none = only(field, unknown);
      const differs = sameAnswer(
        await send(`${field} of B`, theirs),
        theirs,
        await send(`unknown ${field}`, none),
        none,
      );
      if (differs) f.add(c, `${label}, ${field} of B`, `answers unlike an unknown ${field}: ${differs}`);
    }
    // B's tag or entity named where A's are: readable vocabulary, but nothing of B may change or show.
    for (const field of used.filter((x) => (VOCABULARY as readonly string[]).includes(x)))
      await send(`${field} of B`, only(field, fx.outside));
    if (used.length) {
      const all = await send("every id of B", fx.outside);
      if (used.some((x) => (MEMORY_FIELDS as readonly string[]).includes(x))) {
        const noneAll = { ...unknown, tag: fx.outside.tag, tagName: fx.outside.tagName, entity: fx.outside.entity };
        const differs = sameAnswer(all, fx.outside, await send("unknown ids", noneAll), noneAll);
        if (differs) f.add(c, `${label}, every id of B`, `answers unlike unknown ids: ${differs}`);
      }
    }
    // Where links cross: A's thread holding B's reply, A's fact that B's memory corrected (followed by a create).
    await send("where links cross", { ...fx.crossing, external: undefined });
    await send("A's own", { ...fx.inside, external: undefined });
    if (c.write && (c.surface === "rest" || c.surface === "graphql")) {
      // B's token writes with a key; A's token sends the same request with it: answered as with a fresh key.
      // B's write must succeed to be kept: B's own ids, the optional arguments left out.
      const outside = bare((await w.fixtures()).outside);
      const key = crypto.randomUUID();
      await unchecked(outside, { "Idempotency-Key": key }, w.tokenB);
      const replayed = await send("B's Idempotency-Key", outside, { "Idempotency-Key": key });
      const fresh = await send("a fresh Idempotency-Key", outside, { "Idempotency-Key": crypto.randomUUID() });
      if (replayed.replayed) f.add(c, `${label}, B's Idempotency-Key`, "replayed B's answer");
      const differs = sameAnswer(replayed, outside, fresh, outside);
      if (differs) f.add(c, `${label}, B's Idempotency-Key`, `answers unlike a fresh key: ${differs}`);
    }
  } finally {
    await cleanup(w);
  }
}

/** Deletes what the case created, so every case starts from the same small tenant. */
async function cleanup(w: KindWorld) {
  const now = await snapshot(w.api);
  const gone = async (kind: "memories" | "tags" | "entities", ids: Iterable<string>) => {
    for (const id of ids) if (!w.seeded[kind].has(id)) await w.api.delete(`/v1/${kind}/${id}`);
  };
  await gone("memories", now.memories.keys());
  await gone("tags", now.tags.keys());
  await gone("entities", now.entities.keys());
}
