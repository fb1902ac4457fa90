import { checkLines, importTags, type LineResult } from "../../contract/portability";
import { MAX_TAGS_PER_TENANT } from "../../contract/tags";
import { ServiceError, toServiceError } from "../../contract/errors";
import { bind, type Handler } from "../../kit/handler";
import { spaceOf } from "../../kit/space";
import { foldName } from "../../memory-data/keyspace";
import type { TagsDeps } from "./tags";

/**
 * Tags of an import (POST /v1/import), through the same create as the API: a tag whose name exists here is
 * that tag (`exists`, left as it is). A tag keeps its id and created_at, or gets a new id when another tag here
 * holds it: memories link to tags by name.
 */
export function importHandlers(deps: TagsDeps) {
  const now = deps.now ?? Date.now;
  const maxTags = deps.maxTags ?? MAX_TAGS_PER_TENANT;

  const importLines: Handler<typeof importTags> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const { valid, failed } = checkLines(input.lines, ["tag"] as const);
    const held = await deps.store.rows(
      space,
      valid.map((l) => l.record.id),
    );
    const results = valid.map(async ({ line, record: r }, i): Promise<LineResult> => {
      const id = held[i] ? crypto.randomUUID() : r.id;
      const at = Math.min(Date.parse(r.created_at), now());
      const tag = { id, name: r.name, lname: foldName(r.name), color: r.color, description: r.description };
      try {
        await deps.store.create(space, { ...tag, now: at, cap: maxTags });
        return { line, status: "created", id };
      } catch (err) {
        const e = toServiceError(err);
        if (e instanceof ServiceError && e.details?.constraint === "unique")
          return { line, status: "exists", id: e.details.existing_id as string };
        const details = e.details ? { details: e.details as Record<string, unknown> } : {};
        return { line, status: "failed", error: { code: e.code, message: e.message, ...details } };
      }
    });
    return { results: [...(await Promise.all(results)), ...failed] };
  };

  return { importLines };
}

export const importBindings = (deps: TagsDeps) => [bind(importTags, importHandlers(deps).importLines)];
