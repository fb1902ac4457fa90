import { ENTITY_TYPES, createEntity } from "../../services/contract/entities";
import { ServiceError, validationError } from "../../services/contract/errors";
import { createTag } from "../../services/contract/tags";
import type { OperationCall } from "./call";

/** The id a "name already taken" refusal names; anything else is rethrown. */
function takenBy(err: unknown): string {
  const existing = err instanceof ServiceError ? err.details?.existing_id : undefined;
  if (err instanceof ServiceError && err.details?.constraint === "unique" && typeof existing === "string")
    return existing;
  throw err;
}

/**
 * Tag ids for tag names, creating the tags that do not exist. The tags service keeps the rule (names
 * unique case-insensitively): a create that finds the name taken answers the holder's id.
 */
export function ensureTags(call: OperationCall, names: string[]): Promise<string[]> {
  return Promise.all(names.map((name) => call(createTag, { name }).then((tag) => tag.id, takenBy)));
}

/** The id of the entity with this name and type, created if there is none. */
export async function ensureEntity(
  call: OperationCall,
  name: string | undefined,
  type: (typeof ENTITY_TYPES)[number] | undefined,
): Promise<string> {
  if (name === undefined) throw validationError("entity_id", "required", "Give entity_id, or name and type");
  if (type === undefined) throw validationError("type", "required", "type is required with name");
  return call(createEntity, { name, type }).then((entity) => entity.id, takenBy);
}
