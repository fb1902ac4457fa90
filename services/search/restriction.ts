import type { Restriction } from "../contract/op";
import type { FilterInput } from "./filters";

/**
 * A browser token's restriction as search filters, so ranking looks only at memories that may be inside:
 * its metadata values, and its tags when the request names none. Whatever filters cannot say (a subtree,
 * tags besides the request's own) the memories service decides when it hands over the ranked memories: it
 * answers null for those outside (services/memories/restriction.ts), and they drop out. Null: nothing can
 * match (the request asks for another value of a restricted metadata key).
 */
export function restrictFilters(filters: FilterInput, r: Restriction | null): FilterInput | null {
  if (!r) return filters;
  const metadata = { ...filters.metadata };
  for (const [key, value] of Object.entries(r.metadata ?? {})) {
    if (key in metadata && metadata[key] !== value) return null;
    metadata[key] = value;
  }
  const tags = !filters.tags?.length && r.tag_ids ? { tags: r.tag_ids, tags_match: "any" as const } : {};
  return { ...filters, metadata, ...tags };
}
