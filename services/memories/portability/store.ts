import { Type as T, type Static } from "@sinclair/typebox";
import { Uuid } from "../../contract/common";
import { MAX_HIERARCHY_DEPTH } from "../../contract/memories";
import type { RedisClient } from "../../kit/redis-functions";
import { hashTag, type Space } from "../../kit/space";
import { EXPIRY_REGISTRY, foldName, keyspace } from "../../memory-data/keyspace";
import { globLiteral, scanKeys, unlinkMatching } from "../../kit/redis-scan";
import { hashOfPairs } from "../../kit/redis-replies";
import { isoOfMs } from "../../memory-data/memory-hash";
import type { ExportRecord, MemoryRecord } from "../../contract/portability";
import type { ENTITY_TYPES } from "../../contract/entities";
import { memoriesCaller } from "../store/call";
import { parseEntity, parseMemory, type MemoryRow, type ReadEntityReply, type ReadMemoryReply } from "../store/record";

/**
 * Stored bytes one export page holds at most (past one record): a page is one NATS message (8 MB at most), and
 * its JSON is a little larger than what it holds.
 */
export const EXPORT_PAGE_BYTES = 1024 * 1024;

/** A memory's links after linkByName, and its version. */
export interface Linked {
  version: number;
  tag_ids: string[];
  entity_ids: string[];
}

/**
 * A score as lua/export.lua holds it (a zset's score as Redis writes it): a decimal number, which is all ZRANGE
 * BYSCORE and Lua's `tonumber` take.
 */
const Score = T.String({ pattern: "^-?[0-9]{1,20}(\\.[0-9]{1,20})?(e[+-]?[0-9]{1,3})?$" });
/** Where a walk of one zset is: nothing visited yet, or the score and id of the last member visited. */
const Start = [T.Literal(""), T.Literal("")] as const;
const Member = [Score, Uuid()] as const;
/** A frame of the memories' walk: its parent ('' = the roots), 1 if that parent was exported, where it is. */
const Parent = T.Union([T.Literal(""), Uuid()]);
const Exported = T.Union([T.Literal(0), T.Literal(1)]);

/**
 * Where an export goes on (lua/export.lua), exactly the shapes that function writes: a client hands it back as a
 * cursor, so each part is checked before it reaches Redis (a score that is no number, an id that names another
 * key) and its size is bounded (the walk is at most as deep as the hierarchy).
 */
export const ExportPosition = T.Union([
  T.Object(
    { phase: T.Union([T.Literal("t"), T.Literal("e")]), after: T.Union([T.Tuple([...Start]), T.Tuple([...Member])]) },
    { additionalProperties: false },
  ),
  T.Object(
    {
      phase: T.Literal("m"),
      stack: T.Array(T.Union([T.Tuple([Parent, Exported, ...Start]), T.Tuple([Parent, Exported, ...Member])]), {
        minItems: 1,
        maxItems: MAX_HIERARCHY_DEPTH + 2,
      }),
    },
    { additionalProperties: false },
  ),
]);
export type ExportPosition = Static<typeof ExportPosition>;

type ExportReply = [
  (["t", string, string[]] | ["e", ReadEntityReply] | ["m", ReadMemoryReply, string[], string])[],
  string,
];

type EntityType = (typeof ENTITY_TYPES)[number];

/** A memory as an export line: its links by name, and the parent the export wrote before it. */
function memoryRecord(row: MemoryRow, entityPairs: string[], parent: string): MemoryRecord {
  const m = row.memory;
  const entities: MemoryRecord["entities"] = [];
  for (let i = 0; i < entityPairs.length; i += 2)
    entities.push({ type: entityPairs[i] as EntityType, name: entityPairs[i + 1]! });
  entities.sort((a, b) => (a.type + a.name < b.type + b.name ? -1 : a.type + a.name > b.type + b.name ? 1 : 0));
  return {
    type: "memory",
    id: m.id,
    content: m.content,
    content_type: m.content_type,
    tier: m.tier,
    memory_nature: m.memory_nature,
    parent_memory_id: parent || null,
    external_id: m.external_id,
    metadata: m.metadata,
    tags: m.tags.map((t) => t.name),
    entities,
    created_at: m.created_at,
    updated_at: m.updated_at,
    occurred_at: m.occurred_at,
    expires_at: m.expires_at,
    supersedes: m.supersedes,
    superseded_by: m.superseded_by,
    valid_to: m.valid_to,
  };
}

function exportRecord(raw: ExportReply[0][number]): ExportRecord | null {
  if (raw[0] === "t") {
    const h = hashOfPairs(raw[2]);
    if (!h.name) return null;
    const description = h.description ?? null;
    return {
      type: "tag",
      id: raw[1],
      name: h.name,
      color: h.color ?? null,
      description,
      created_at: isoOfMs(h.created_at),
    };
  }
  if (raw[0] === "e") {
    const e = parseEntity(raw[1]);
    if (!e) return null;
    const { id, name, type, description, metadata, created_at } = e;
    return { type: "entity", id, name, entity_type: type, description, metadata, created_at };
  }
  const row = parseMemory(raw[1]);
  return row ? memoryRecord(row, raw[2], raw[3]) : null;
}

/**
 * Erasures under way (contract/erase.ts): field `{tenant:env}` → the index in ERASE_STEPS of the step it is at.
 * Its own hash tag, outside every space, so an erased space leaves nothing under its own; the field goes when the
 * erase completes.
 */
export const ERASE_PROGRESS = "erase:{erase}:progress";

/**
 * The memories service's Redis calls for export and import (services/contract/portability.ts), through the same
 * function library as its other writes: an import creates each memory with `create-batch` (memory/store.ts), as
 * the API does.
 */
export function createPortabilityStore(redis: RedisClient) {
  const call = memoriesCaller(redis);

  return {
    /** Up to `max` records after `from` (null: the start); `next` null when the export is complete. */
    async exportPage(
      space: Space,
      from: ExportPosition | null,
      max: number,
    ): Promise<{ records: ExportRecord[]; next: ExportPosition | null }> {
      const args = [from === null ? "" : JSON.stringify(from), max, EXPORT_PAGE_BYTES];
      const [raws, next] = await call.space<ExportReply>("export", space, args, [keyspace(space).tagsByCreated]);
      const records = raws.map(exportRecord).filter((r): r is ExportRecord => r !== null);
      return { records, next: next === "" ? null : (JSON.parse(next) as ExportPosition) };
    },

    /** One bounded step of erasing the space's memories, entities and their indexes, and its expiry registration. */
    async erase(space: Space, budget: number): Promise<{ deleted: number; done: boolean }> {
      const tag = globLiteral(hashTag(space));
      const patterns = ["m", "mi", "e", "ei"].map((kind) => `${kind}:${tag}:*`);
      const step = await unlinkMatching(redis, patterns, budget);
      if (step.done)
        await Promise.all([
          redis.zrem(EXPIRY_REGISTRY.due, hashTag(space)),
          redis.hdel(EXPIRY_REGISTRY.gen, hashTag(space)),
        ]);
      return step;
    },

    /** The step an erase of the space is at, or null when none is under way. */
    async eraseProgress(space: Space): Promise<number | null> {
      const at = await redis.hget(ERASE_PROGRESS, hashTag(space));
      return at === null ? null : Number(at);
    },
    /** Where an erase is (a step index), or null: it is complete. */
    async setEraseProgress(space: Space, step: number | null): Promise<void> {
      if (step === null) await redis.hdel(ERASE_PROGRESS, hashTag(space));
      else await redis.hset(ERASE_PROGRESS, hashTag(space), step);
    },

    /** Keys left anywhere under the space's hash tag (what an erase must leave none of), at most `max`. */
    async keysOfSpace(space: Space, max: number): Promise<string[]> {
      const out: string[] = [];
      for await (const keys of scanKeys(redis, `*${globLiteral(hashTag(space))}*`)) {
        out.push(...keys);
        if (out.length >= max) break;
      }
      return out.slice(0, max);
    },

    /**
     * For each id, the creation times (ms) an imported line may give for its memory: its created_at, and the one
     * an import asked for when that was still to come (stored as the time of that import); null where no memory
     * is visible.
     */
    async probe(space: Space, ids: string[]): Promise<Map<string, number[] | null>> {
      const out = new Map<string, number[] | null>();
      if (ids.length === 0) return out;
      const reply = await call.space<string[]>("import-probe", space, ids);
      ids.forEach((id, i) => out.set(id, reply[i] ? reply[i].split(",").map(Number) : null));
      return out;
    },

    /**
     * Links memories to tags and entities by name, in one call; answers each memory's links and version as they
     * now are (null: it is not here), and the names that name nothing here.
     */
    async linkByName(
      space: Space,
      links: { id: string; tags: string[]; entities: { type: string; name: string }[] }[],
    ): Promise<{ linked: Linked | null; missing: string[] }[]> {
      if (links.length === 0) return [];
      const args: (string | number)[] = [links.length];
      for (const l of links)
        args.push(
          l.id,
          l.tags.length,
          l.entities.length,
          ...l.tags.map(foldName),
          ...l.entities.map((e) => `${e.type}:${foldName(e.name)}`),
        );
      const tagNames = [keyspace(space).tagNames];
      const r = await call.space<[[string, string[], string[]] | false, string[]][]>(
        "import-links",
        space,
        args,
        tagNames,
      );
      return r.map(([l, missing]) => ({
        linked: l ? { version: Number(l[0]), tag_ids: l[1], entity_ids: l[2] } : null,
        missing,
      }));
    },
  };
}

export type PortabilityStore = ReturnType<typeof createPortabilityStore>;
