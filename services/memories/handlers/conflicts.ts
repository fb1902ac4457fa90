import { notFound, ServiceError, validationError } from "../../contract/errors";
import { MAX_HIERARCHY_DEPTH } from "../../contract/memories";
import type { Conflict } from "../store";

export interface ConflictContext {
  /** What `not_found` refers to: the resource the operation addresses. */
  resource?: "Memory" | "Entity";
  /** Unknown memory ids in a body field of a new entity are a 400 `exists`; targets of a link call a 404. */
  missingMemory?: "exists" | "not_found";
}

/** The domain error of each refusal a store script can answer. */
export function conflictError(c: Conflict, ctx: ConflictContext = {}): ServiceError {
  switch (c.code) {
    case "not_found":
      return notFound(ctx.resource ?? "Memory");
    case "entity_missing":
      return notFound("Entity");
    case "parent_missing":
      return validationError("parent_memory_id", "exists", "parent_memory_id must name an existing memory");
    case "too_deep":
      return validationError("parent_memory_id", "max_depth", `A memory hierarchy may be at most ${MAX_HIERARCHY_DEPTH} levels deep`, { max: MAX_HIERARCHY_DEPTH });
    case "cycle":
      return validationError("parent_memory_id", "acyclic", "parent_memory_id would create a cycle (it is a descendant of this memory)");
    case "self_parent":
      return validationError("parent_memory_id", "acyclic", "A memory cannot be its own parent");
    case "external_id_taken":
      return validationError("external_id", "unique", "A memory with this external_id already exists");
    case "name_taken":
      return validationError("name", "unique", "An entity with this name and type already exists");
    case "memory_missing":
      return ctx.missingMemory === "exists"
        ? validationError("memory_ids", "exists", "memory_ids must name existing memories", { missing: c.ids })
        : new ServiceError("NOT_FOUND", "Memory not found", { missing: c.ids });
  }
}
