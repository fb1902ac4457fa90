import { newTenant, type ApiClient } from "../api";
import { testStack } from "../harness";
import { unique, unknownIds, type Ids } from "./ids";

/**
 * Two users' data side by side, per restriction kind: in a tenant of its own for the security test (`seedKind`),
 * and in the fuzzer's tenant for its restricted runs (`seedWorld`, test/fuzz/restricted.ts). A token of user A is
 * restricted by the kind; user B's memories (`outside`) sit where walks and links cross: below A's threads,
 * in supersession chains with A's memories, carrying the same tags and entities. Every B memory says
 * OUTSIDE_SECRET, so an answer holding it leaked.
 */
export type Kind = "metadata" | "subtree" | "tags";
export const KINDS: Kind[] = ["metadata", "subtree", "tags"];
export const OUTSIDE_SECRET = "SECRET-of-user-B";
export const A = "u_a";
export const B = "u_b";

export interface MemoryView {
  id: string;
  parent_memory_id: string | null;
  metadata: Record<string, unknown>;
  tags: { id: string }[];
  entity_ids: string[];
  [field: string]: unknown;
}

/**
 * The two users' data every restricted check starts from (the security test's and the fuzzer's restricted runs):
 * each user's tag and entity and a shared pair, each user's root, and a token of each user.
 */
export interface World {
  kind: Kind;
  /** The tenant's key (`*`): seeds, snapshots and cleans up. */
  api: ApiClient;
  tokenA: string;
  /** A token of user B, whose keyed writes A must never be replayed. */
  tokenB: string;
  rootA: string;
  rootB: string;
  tags: { a: string; b: string; shared: string };
  entities: { a: string; b: string; shared: string };
  isInside(m: MemoryView, all: Map<string, MemoryView>): boolean;
  /** A memory of `user`, with its user's tag and entity (and the shared tag when asked). */
  create(user: string, body: Record<string, unknown>, shared?: boolean): Promise<string>;
}

export interface KindWorld extends World {
  tenant: string;
  /** Fresh memories for one case: A's own, B's, and A's where links cross into B's. */
  fixtures(): Promise<{ inside: Ids; outside: Ids; crossing: Ids; created: string[] }>;
  /** What the seed holds: a case's cleanup deletes everything else. */
  seeded: { memories: Set<string>; tags: Set<string>; entities: Set<string> };
}

/** The `data` of a seeding call, which must succeed. */
export async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`seeding failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

const newTag = async (api: ApiClient, name: string) => (await ok(api.post("/v1/tags", { name }))).id as string;
const newEntity = async (api: ApiClient, name: string) =>
  (await ok(api.post("/v1/entities", { name, type: "organization" }))).id as string;

/** Seeds the world of `kind` in the tenant of `api` (a key with every scope), and mints both users' tokens. */
export async function seedWorld(api: ApiClient, kind: Kind): Promise<World> {
  const tags = {
    a: await newTag(api, "tag-of-a"),
    b: await newTag(api, "tag-of-b"),
    shared: await newTag(api, "tag-shared"),
  };
  const entities = {
    a: await newEntity(api, "A Co"),
    b: await newEntity(api, "B Co"),
    shared: await newEntity(api, "Shared Co"),
  };
  const create = async (user: string, body: Record<string, unknown>, shared = false) => {
    const content = `${body.content} about tea${user === B ? ` ${OUTSIDE_SECRET}` : ""}`;
    const m = await ok(api.post("/v1/memories", { ...body, content, metadata: { user_id: user } }));
    const own = user === A ? tags.a : tags.b;
    await ok(api.post(`/v1/memories/${m.id}/tags`, { tag_ids: shared ? [own, tags.shared] : [own] }));
    await ok(api.post(`/v1/entities/${user === A ? entities.a : entities.b}/memories`, { memory_ids: [m.id] }));
    return m.id as string;
  };
  const rootA = await create(A, { content: "root of a", external_id: "ext-a" }, true);
  const rootB = await create(B, { content: "root of b", external_id: "ext-b" }, true);
  const restrict =
    kind === "metadata"
      ? { metadata: { user_id: A } }
      : kind === "subtree"
        ? { root_memory_id: rootA }
        : { tag_ids: [tags.a] };
  const mint = async (r: object) =>
    (
      await ok(
        api.post("/v1/tokens", {
          scopes: ["memories:read", "memories:write", "search:read"],
          restrict: r,
          ttl_seconds: 3600,
        }),
      )
    ).token as string;
  const tokenA = await mint(restrict);
  const tokenB = await mint(kind === "tags" ? { tag_ids: [tags.b] } : { metadata: { user_id: B } });
  const isInside = (m: MemoryView, all: Map<string, MemoryView>): boolean => {
    if (kind === "metadata") return m.metadata.user_id === A;
    if (kind === "tags") return m.tags.some((t) => t.id === tags.a);
    for (let at: MemoryView | undefined = m, hops = 0; at && hops < 70; at = all.get(at.parent_memory_id ?? ""), hops++)
      if (at.id === rootA) return true;
    return false;
  };
  return { kind, api, tokenA, tokenB, rootA, rootB, tags, entities, isInside, create };
}

export async function seedKind(kind: Kind): Promise<KindWorld> {
  const { baseUrl, adminKey } = await testStack();
  const { api, tenant } = await newTenant(baseUrl, adminKey);
  const world = await seedWorld(api, kind);
  const { create, rootA, rootB } = world;
  // Below A's root is inside a subtree restriction whoever it names: there B's memories sit below B's root.
  await create(
    B,
    { content: "reply of b in a thread of a", parent_memory_id: kind === "subtree" ? rootB : rootA },
    true,
  );
  await create(A, { content: "reply of a", parent_memory_id: rootA }, true);
  const base = (over: Partial<Ids>): Ids => ({ ...unknownIds(), tenant, ...over });
  const fixtures = async () => {
    const created: string[] = [];
    // Tags and entities of this case alone: a case may delete them (A's own), the next one still has its own.
    const vocabulary = async (who: string) => {
      const tagName = unique(`tag-${who}`);
      return { tagName, tag: await newTag(api, tagName), entity: await newEntity(api, unique(`${who} Co`)) };
    };
    const [ofA, ofB, ofBoth] = [await vocabulary("a"), await vocabulary("b"), await vocabulary("shared")];
    const make = async (user: string, body: Record<string, unknown>, shared = false) => {
      const id = await create(user, body, shared);
      const mine = user === A ? ofA : ofB;
      const tagIds = shared ? [mine.tag, ofBoth.tag] : [mine.tag];
      await ok(api.post(`/v1/memories/${id}/tags`, { tag_ids: tagIds }));
      for (const e of shared ? [mine.entity, ofBoth.entity] : [mine.entity])
        await ok(api.post(`/v1/entities/${e}/memories`, { memory_ids: [id] }));
      created.push(id);
      return id;
    };
    const inside = base({
      memory: await make(A, { content: "a's memory", parent_memory_id: rootA }),
      other: await make(A, { content: "a's other memory", parent_memory_id: rootA }),
      ...ofA,
      external: unique("ext-new"),
    });
    const outside = base({
      memory: await make(B, { content: "b's memory", parent_memory_id: rootB, external_id: unique("ext-b") }),
      other: await make(B, { content: "b's other memory", parent_memory_id: rootB }),
      ...ofB,
      external: "ext-b",
    });
    // A's thread with B's reply in it (below B's root for a subtree), and A's fact that B's memory corrected.
    const thread = await make(A, { content: "a's thread", parent_memory_id: rootA }, true);
    await make(B, { content: "b's reply", parent_memory_id: kind === "subtree" ? rootB : thread }, true);
    const fact = await make(A, { content: "a's fact", parent_memory_id: rootA }, true);
    await make(B, { content: "b's correction", parent_memory_id: rootB, supersedes: fact });
    const crossing = base({ memory: thread, other: fact, ...ofBoth, external: "ext-a" });
    return { inside, outside, crossing, created };
  };
  const ids = async (path: string) =>
    new Set<string>((await ok(api.get(`${path}?limit=100`))).map((x: { id: string }) => x.id));
  const seeded = {
    memories: await ids("/v1/memories"),
    tags: await ids("/v1/tags"),
    entities: await ids("/v1/entities"),
  };
  return { ...world, tenant, fixtures, seeded };
}
