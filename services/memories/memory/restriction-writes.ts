import { ServiceError } from "../../contract/errors";
import type { Memory } from "../../contract/memories";
import type { Restriction } from "../../contract/op";
import type { Space } from "../../kit/space";
import type { MemoryDraft } from "./create-args";
import type { MemoryRow } from "../store/record";
import type { MemoryPatch, MemoryStore } from "../store";

type Inside = (space: Space, m: Memory, r: Restriction) => Promise<boolean>;
type Reachable = (space: Space, id: string, r: Restriction) => Promise<MemoryRow>;
/** Memories read by id, each with whether it is inside the restriction. */
type Found = Map<string, { memory: Memory; inside: boolean }>;

const forbidden = (message: string, field: string) =>
  new ServiceError("FORBIDDEN", message, { field, constraint: "token_restriction" });

/**
 * The writes of a restricted caller (restriction.ts): every memory a write changes is inside, the memory
 * written and the ones it changes besides (a memory superseded at the end of a chain, one whose `valid_to`
 * follows, children orphaned, a memory restored as the latest). Each is decided on what the store says the
 * write will touch, not on what the request names. And no answer tells whether a memory outside exists:
 * naming one is answered as naming none, and external ids, unique in the whole tenant, are not the token's
 * to set.
 */
export function restrictedWrites(store: MemoryStore, inside: Inside, reachable: Reachable) {
  /** The memories named in `ids` that exist, read at once, each with whether it is inside `r`. */
  async function readInside(space: Space, ids: (string | null | undefined)[], r: Restriction): Promise<Found> {
    const named = [...new Set(ids.filter((id): id is string => typeof id === "string"))];
    const rows = (await store.getMemories(space, named)).filter((row) => row !== null);
    const ok = await Promise.all(rows.map((row) => inside(space, row.memory, r)));
    return new Map(rows.map((row, i) => [row.memory.id, { memory: row.memory, inside: ok[i]! }]));
  }

  /** Whether `id` was found inside `r`. */
  const isInside = (found: Found, id: string) => found.get(id)?.inside === true;

  /**
   * The metadata a write under `r` stores: the restricted values set, a different value for one of them
   * refused. A memory so written stays inside on metadata.
   */
  function restrictedMetadata(metadata: Record<string, unknown>, r: Restriction): Record<string, unknown> {
    for (const [key, value] of Object.entries(r.metadata ?? {})) {
      if (key in metadata && metadata[key] !== value)
        throw forbidden(`This token writes only memories with metadata.${key} = ${JSON.stringify(value)}`, "metadata");
    }
    return { ...metadata, ...r.metadata };
  }

  /**
   * A parent under `r` must be inside it (unknown: the same answer; `found` holds it as read); with a subtree, a
   * new memory needs one.
   */
  function checkParent(parent: string | null | undefined, found: Found, r: Restriction, self?: string) {
    if (parent === undefined) return;
    if (parent === null) {
      if (r.root_memory_id && self !== r.root_memory_id)
        throw forbidden("This token writes only below its root memory: give a parent_memory_id", "parent_memory_id");
      return;
    }
    if (!isInside(found, parent))
      throw forbidden("The parent memory is outside what this token may reach", "parent_memory_id");
  }

  /** An external id is unique in the tenant: whether a token may take one would tell of memories outside. */
  function checkExternalId(externalId: string | null | undefined) {
    if (externalId !== undefined && externalId !== null)
      throw forbidden("A token cannot set external_id (it is unique across the tenant)", "external_id");
  }

  /**
   * The latest memory of the chain `supersedes` names: what the create modifies. It and the memory named are
   * inside `r` (`found` holds the one named as read); an unknown one is answered the same, so that the answer
   * tells nothing of memories outside.
   */
  async function supersessionHead(space: Space, supersedes: string, found: Found, r: Restriction): Promise<string> {
    const refused = () => forbidden("The memory to supersede is outside what this token may reach", "supersedes");
    if (!isInside(found, supersedes)) throw refused();
    const head = await store.supersessionHead(space, supersedes);
    if (head === null || (head !== supersedes && !isInside(await readInside(space, [head], r), head))) throw refused();
    return head;
  }

  return {
    /**
     * An entity's own change (update, delete) under `r`: refused, as an entity is shared by the tenant's
     * memories, outside ones included (a rename shows on them, a delete unlinks them). Links are checked per
     * memory instead (`mustReach`).
     */
    forEntityChange(r: Restriction | null) {
      if (r) throw forbidden("A token cannot change or delete an entity (it is shared by the tenant)", "entity_id");
    },
    /**
     * A create under `r` as it is written: metadata set, the parent (`parent`: the one checked, an earlier
     * batch item's for a `parent_ref`) and the chain's latest memory inside, that memory fixed for the write
     * (the create is refused if another has superseded it meanwhile). Tags and external ids cannot be set.
     */
    async forCreate(
      space: Space,
      r: Restriction | null,
      m: MemoryDraft,
      parent = m.fields.parent,
    ): Promise<MemoryDraft> {
      if (!r) return m;
      if (r.tag_ids)
        throw forbidden("A token restricted to tags cannot create memories (a new memory carries no tag)", "tag_ids");
      checkExternalId(m.fields.external_id);
      const { supersedes } = m.life;
      const found = await readInside(space, [parent, supersedes], r);
      checkParent(parent, found, r);
      const fields = { ...m.fields, metadata: restrictedMetadata(m.fields.metadata, r) };
      if (supersedes === undefined) return { ...m, fields };
      const life = { ...m.life, supersedes_head: await supersessionHead(space, supersedes, found, r) };
      return { ...m, fields, life };
    },
    /**
     * A patch under `r`: the memory inside, and it stays inside (metadata kept, a new parent inside). A new
     * occurred_at moves the `valid_to` of the memory it replaced: that one must be inside too.
     */
    async forUpdate(space: Space, r: Restriction | null, id: string, patch: MemoryPatch) {
      if (!r) return patch.metadata;
      const { memory } = await reachable(space, id, r);
      checkExternalId(patch.external_id);
      const replaced = patch.occurred_at !== undefined ? memory.supersedes : null;
      const found = await readInside(space, [patch.parent, replaced], r);
      checkParent(patch.parent, found, r, id);
      const old = replaced === null ? undefined : found.get(replaced);
      if (old && old.memory.superseded_by === id && !old.inside)
        throw forbidden("A new occurred_at would change a memory this token cannot reach", "occurred_at");
      return patch.metadata && restrictedMetadata(patch.metadata, r);
    },
    /**
     * A delete under `r`: the memory inside; a cascade only when the subtree alone restricts (all of it is
     * inside); and every memory the delete changes without deleting it inside.
     */
    async forDelete(space: Space, r: Restriction | null, id: string, cascade: boolean) {
      if (!r) return;
      // What the delete would touch is read alongside: it answers nothing before the memory is found inside.
      const [, touched] = await Promise.all([reachable(space, id, r), store.removalTouches(space, id, cascade)]);
      if (cascade && (r.metadata || r.tag_ids))
        throw forbidden(
          "This token cannot delete with cascade: the subtree may hold memories it cannot reach",
          "cascade",
        );
      const found = await readInside(space, touched ?? [], r);
      if ([...found.values()].some((m) => !m.inside))
        throw forbidden("Deleting this memory would change memories this token cannot reach", "id");
      // Its children would become roots, outside the subtree: the token's own memories would leave its reach.
      if (id === r.root_memory_id && !cascade && (touched?.length ?? 0) > 0)
        throw forbidden(
          "Deleting the root of this token's subtree would move its children out: use cascade",
          "cascade",
        );
    },
  };
}
