import { createHash } from "node:crypto";
import {
  checkLines,
  exportPage,
  EXPORT_PAGE_MAX,
  importRecords,
  type EntityRecord,
  type LineResult,
  type MemoryRecord,
} from "../../contract/portability";
import { MAX_HIERARCHY_DEPTH } from "../../contract/memories";
import { ServiceError, toServiceError, validationError } from "../../contract/errors";
import { bind, type Handler } from "../../kit/handler";
import { hashTag, spaceOf, type Space } from "../../kit/space";
import { chunksOf } from "../../kit/chunks";
import type { MemoryChange } from "../../memory-data/publisher";
import { ExportPosition, type PortabilityStore } from "../portability";
import { compileValidator } from "../../contract/validation";
import { createdChanges, type MemoryDraft } from "../memory";
import { registerEarliestExpiry } from "../expiry";
import { type MemoriesDeps, storageLimitsOf } from "./memories";

/** Memories an import writes per function call: large enough to spare round trips, small enough not to hold
 * Redis for long (a call runs alone, like every script). */
const IMPORT_WRITE_BATCH = 100;

export interface PortabilityDeps extends MemoriesDeps {
  port: PortabilityStore;
}

/** An export cursor: where lua/export.lua goes on, as base64url JSON (opaque to clients). */
export const encodeCursor = (at: ExportPosition) => Buffer.from(JSON.stringify(at)).toString("base64url");

const checkPosition = compileValidator(ExportPosition);

/** A client's cursor reaches a Redis function: only a position of a shape export.lua writes goes on. */
export function decodeCursor(cursor: string): ExportPosition {
  try {
    return checkPosition(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    throw validationError("cursor", "format", "cursor must be one an export answered");
  }
}

/**
 * The id an imported memory takes when its own is held by another memory here: derived from the space and
 * the exported id, so a resumed import finds it again and a child's parent follows it without a stored map.
 */
export function derivedId(space: Space, id: string): string {
  const h = createHash("sha256")
    .update(`${hashTag(space)}:${id}`)
    .digest("hex");
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const failed = (line: number, err: unknown): LineResult => {
  const e = toServiceError(err);
  return { line, status: "failed", error: { code: e.code, message: e.message, ...detailsOf(e) } };
};
const detailsOf = (e: ServiceError) => (e.details ? { details: e.details as Record<string, unknown> } : {});
const isTaken = (err: unknown, field: string) =>
  err instanceof ServiceError && err.details?.field === field && err.details?.constraint === "unique";

/** A memory an import created: its line, its id here, its record, and its expiry as stored. */
interface Imported {
  line: number;
  id: string;
  record: MemoryRecord;
  expiresAt: string | null;
}

export function portabilityHandlers(deps: PortabilityDeps) {
  const newId = deps.newId ?? (() => crypto.randomUUID());

  const page: Handler<typeof exportPage> = async (input, ctx) => {
    const from = input.cursor === undefined ? null : decodeCursor(input.cursor);
    const { records, next } = await deps.port.exportPage(spaceOf(ctx), from, input.limit ?? EXPORT_PAGE_MAX);
    return { records, cursor: next === null ? null : encodeCursor(next) };
  };

  /** An entity keeps its id when no other entity here holds it (`taken`); memories name it by type and name. */
  async function importEntity(space: Space, line: number, r: EntityRecord, taken: boolean): Promise<LineResult> {
    const { name, description, metadata } = r;
    const fields = { name, type: r.entity_type, description, metadata, created_at: Date.parse(r.created_at) };
    try {
      const { entity } = await deps.store.createEntity(space, taken ? newId() : r.id, fields, []);
      return { line, status: "created", id: entity.id };
    } catch (err) {
      if (!isTaken(err, "name")) return failed(line, err);
      return { line, status: "exists", id: (err as ServiceError).details!.existing_id as string };
    }
  }

  /**
   * A chunk of lines in file order. Ids are settled first, from one probe: an exported id is kept when free
   * here; one held by a memory created at the same instant is that memory (imported before: `exists`); one
   * held by another memory is replaced by its derived id. A supersession is restored from whichever of its two
   * memories comes second. Then the memories are written in line order, a batch
   * per function call (create-batch.lua), all sent at once on the one connection of the space's slot, so a
   * parent is written before its children.
   */
  const importLines: Handler<typeof importRecords> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const limits = storageLimitsOf(ctx, deps);
    const { valid, failed: refused } = checkLines(input.lines, ["entity", "memory"] as const);
    const memories = valid.flatMap((l) => (l.record.type === "memory" ? [l.record] : []));
    // Parents and superseded memories of earlier lines of the chunk are settled as those lines are.
    const inChunk = new Set(memories.map((m) => m.id));
    const refs = new Set<string>();
    for (const m of memories)
      for (const id of [m.id, m.parent_memory_id, m.supersedes, m.superseded_by])
        if (id && (id === m.id || !inChunk.has(id))) refs.add(id).add(derivedId(space, id));
    const known = await deps.port.probe(space, [...refs]);
    const entityIds = valid.flatMap((l) => (l.record.type === "entity" ? [l.record.id] : []));
    const entities = await deps.store.getEntities(space, entityIds);
    const takenEntity = new Set(entityIds.filter((_, i) => entities[i] !== null));
    const here = new Map<string, string>();
    const resolve = (id: string) => {
      const derived = derivedId(space, id);
      return here.get(id) ?? (known.get(derived) != null ? derived : id);
    };
    const exists = (id: string) => here.has(id) || known.get(resolve(id)) != null;

    const created: Imported[] = [];
    const changes: MemoryChange[] = [];
    const answers: (LineResult | Promise<LineResult>)[] = [];
    const toCreate: { line: number; record: MemoryRecord; item: MemoryDraft; at: number }[] = [];
    for (const { line, record: r } of valid) {
      if (r.type === "entity") {
        answers.push(importEntity(space, line, r, takenEntity.has(r.id)));
        continue;
      }
      const derived = derivedId(space, r.id);
      const held = known.get(r.id);
      if (here.has(r.id) || known.get(derived) != null || held?.includes(Date.parse(r.created_at))) {
        const id = here.get(r.id) ?? (known.get(derived) != null ? derived : r.id);
        here.set(r.id, id);
        answers.push({ line, status: "exists", id });
        continue;
      }
      const id = held == null ? r.id : derived;
      const parent = r.parent_memory_id === null ? null : resolve(r.parent_memory_id);
      here.set(r.id, id);
      const { content, content_type, tier, memory_nature, external_id, metadata } = r;
      const fields = { content, content_type, tier, memory_nature, parent, external_id, metadata };
      const life = {
        created_at: r.created_at,
        occurred_at: r.occurred_at,
        expires_at: r.expires_at,
        ...(r.supersedes !== null && exists(r.supersedes) ? { supersedes: resolve(r.supersedes) } : {}),
        // The memory replacing it came first (from an earlier subtree): the link is made from this side.
        ...(r.superseded_by !== null && exists(r.superseded_by) ? { superseded_by: resolve(r.superseded_by) } : {}),
      };
      toCreate.push({ line, record: r, item: { id, fields, life }, at: answers.length });
      answers.push({ line, status: "created", id });
    }
    // In file order, IMPORT_WRITE_BATCH memories per function call: a parent is written before its children.
    const batches = chunksOf(toCreate, IMPORT_WRITE_BATCH);
    const outcomes = await Promise.all(
      batches.map((b) =>
        deps.store.createMemories(
          space,
          b.map((c) => c.item),
          MAX_HIERARCHY_DEPTH,
          limits,
        ),
      ),
    );
    outcomes.flat().forEach((outcome, i) => {
      const { line, record, item, at } = toCreate[i]!;
      if (outcome instanceof ServiceError) {
        answers[at] = isTaken(outcome, "external_id") ? { line, status: "exists" } : failed(line, outcome);
        return;
      }
      changes.push(...createdChanges(outcome));
      created.push({ line, id: item.id, record, expiresAt: outcome.memory.expires_at });
    });
    const results = await Promise.all(answers);
    await linkAll(space, created, results, changes);
    results.push(...refused);
    await deps.changes.committed(ctx, changes);
    await registerEarliestExpiry(
      deps.store,
      ctx,
      space,
      created.map((c) => c.expiresAt),
    );
    return { results };
  };

  /** Tags and entities of the memories just created, by name; the `created` event carries them. */
  async function linkAll(space: Space, created: Imported[], results: LineResult[], changes: MemoryChange[]) {
    const withLinks = created.filter((c) => c.record.tags.length + c.record.entities.length > 0);
    const answers = await deps.port.linkByName(
      space,
      withLinks.map((c) => ({ id: c.id, tags: c.record.tags, entities: c.record.entities })),
    );
    const answerOf = new Map(withLinks.map((c, i) => [c, answers[i]!]));
    const linked = created.map((c) => answerOf.get(c) ?? null);
    const byId = new Map(linked.flatMap((l, i) => (l?.linked ? [[created[i]!.id, l.linked] as const] : [])));
    for (const change of changes) {
      if (change.type !== "created") continue;
      const now = byId.get(change.memory.id);
      if (now) change.memory = { ...change.memory, ...now };
    }
    linked.forEach((l, i) => {
      if (!l || l.missing.length === 0) return;
      const result = results.find((r) => r.line === created[i]!.line)!;
      const message = "Some of its tags or entities name nothing here; the memory was created without them";
      result.error = { code: "NOT_FOUND", message, details: { missing: l.missing } };
    });
  }

  return { page, importLines };
}

export const portabilityBindings = (deps: PortabilityDeps) => {
  const h = portabilityHandlers(deps);
  return [bind(exportPage, h.page), bind(importRecords, h.importLines)];
};
