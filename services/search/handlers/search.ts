import { searchMemories, type SearchResult } from "../../contract/search";
import { validationError } from "../../contract/errors";
import { bind, requireCaller, restrictionOf, type Handler } from "../../kit/handler";
import { restrictFilters } from "../restriction";
import type { Space } from "../../kit/space";
import type { Retrieve, RetrieveRequest } from "../retrieval";
import type { MemoryReader } from "../memories-client";
import type { Rebuilder } from "../indexer";
import type { FilterInput } from "../filters";

export interface SearchDeps {
  retrieve: Retrieve;
  reader: MemoryReader;
  rebuilder: Pick<Rebuilder, "ensure">;
}

const FILTER_FIELDS = [
  "tier",
  "tags",
  "tags_match",
  "content_type",
  "memory_nature",
  "parent_memory_id",
  "entity_id",
  "created_after",
  "created_before",
  "occurred_after",
  "occurred_before",
  "latest_only",
  "as_of",
  "metadata",
] as const satisfies readonly (keyof FilterInput)[];

/** The request fields that are filters (the schema has validated them). */
export function filtersOf(input: FilterInput & Record<string, unknown>): FilterInput {
  return Object.fromEntries(FILTER_FIELDS.map((field) => [field, input[field]])) as FilterInput;
}

/** What a schema cannot say: a query of only spaces, and an empty created_at or occurred_at range. */
export function checkRequest(input: {
  query: string;
  created_after?: string;
  created_before?: string;
  occurred_after?: string;
  occurred_before?: string;
}): void {
  if (input.query.trim() === "") throw validationError("query", "required", "query must not be empty");
  for (const field of ["created", "occurred"] as const) {
    const after = input[`${field}_after`];
    const before = input[`${field}_before`];
    if (after && before && Date.parse(after) >= Date.parse(before))
      throw validationError(`${field}_before`, "range", `${field}_before must be later than ${field}_after`);
  }
}

/** Ranked ids → full memories (from the memories service), in rank order; memories deleted meanwhile drop out. */
export async function findResults(
  deps: SearchDeps,
  space: Space,
  req: RetrieveRequest,
  on: Parameters<MemoryReader["getMany"]>[0],
): Promise<SearchResult[]> {
  await deps.rebuilder.ensure(space);
  const ranked = await deps.retrieve(space, req);
  if (ranked.length === 0) return [];
  const memories = await deps.reader.getMany(
    on,
    ranked.map((r) => r.id),
  );
  return ranked.flatMap((r) => {
    const m = memories.get(r.id);
    return m ? [{ ...m, score: r.score, scores: r.scores }] : [];
  });
}

export function searchBindings(deps: SearchDeps) {
  const search: Handler<typeof searchMemories> = async (input, ctx) => {
    const caller = requireCaller(ctx);
    checkRequest(input);
    const filters = restrictFilters(filtersOf(input), restrictionOf(ctx));
    if (!filters) return { results: [] };
    const req: RetrieveRequest = {
      query: input.query,
      limit: input.limit ?? 10,
      threshold: input.threshold ?? 0,
      filters,
    };
    const results = await findResults(deps, { tenant: caller.tenant, env: caller.env }, req, {
      caller,
      requestId: ctx.requestId,
    });
    return { results };
  };
  return [bind(searchMemories, search)];
}
