import { ENTITY_TYPES, createEntity, linkEntityMemories } from "../../services/contract/entities";
import { ServiceError, validationError } from "../../services/contract/errors";
import type { OutputOf } from "../../services/contract/op";
import { createTag, deleteTag } from "../../services/contract/tags";
import type { OperationCall } from "./call";

/** The id a "name already taken" refusal names, or null for any other error. */
function takenBy(err: unknown): string | null {
  const existing = err instanceof ServiceError ? err.details?.existing_id : undefined;
  return err instanceof ServiceError && err.details?.constraint === "unique" && typeof existing === "string"
    ? existing
    : null;
}

export interface NamedTags {
  ids: string[];
  /** The tags this call created: a caller whose later step fails removes them again (`discardTags`). */
  created: string[];
}

/**
 * Tag ids for tag names, creating the tags that do not exist. The tags service keeps the rule (names
 * unique case-insensitively): a create that finds the name taken answers the holder's id.
 */
export async function ensureTags(call: OperationCall, names: string[]): Promise<NamedTags> {
  const out: NamedTags = { ids: [], created: [] };
  const settled = await Promise.allSettled(names.map((name) => call(createTag, { name })));
  let failure: unknown = null;
  for (const r of settled) {
    if (r.status === "fulfilled") out.ids.push(r.value.id), out.created.push(r.value.id);
    else {
      const existing = takenBy(r.reason);
      if (existing) out.ids.push(existing);
      else failure ??= r.reason;
    }
  }
  if (failure) {
    await discardTags(call, out.created);
    throw failure;
  }
  return out;
}

export const discardTags = (call: OperationCall, ids: string[]) =>
  Promise.all(ids.map((id) => call(deleteTag, { id }).catch(() => undefined)));

/**
 * Links memories to the entity with this name and type, creating it (already linked) if there is none: one
 * operation either way, so a refusal (an unknown memory) stores nothing.
 */
export async function linkByName(
  call: OperationCall,
  name: string | undefined,
  type: (typeof ENTITY_TYPES)[number] | undefined,
  memoryIds: string[],
): Promise<OutputOf<typeof linkEntityMemories>> {
  if (name === undefined) throw validationError("entity_id", "required", "Give entity_id, or name and type");
  if (type === undefined) throw validationError("type", "required", "type is required with name");
  try {
    const entity = await call(createEntity, { name, type, memory_ids: memoryIds });
    return { entity_id: entity.id, added: entity.memory_count, skipped: 0, memory_count: entity.memory_count };
  } catch (err) {
    const existing = takenBy(err);
    if (!existing) throw err;
    return call(linkEntityMemories, { id: existing, memory_ids: memoryIds });
  }
}
