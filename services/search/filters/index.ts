/**
 * The filters of a search or context request: their normal form (FilterSpec) for the lexical index's
 * filter sets, and the same as a VSIM FILTER expression over the vector attributes.
 */
export { hasFilters, hasRanges, suffixOf, toFilterSpec, toVsimFilter } from "./filters";
export type { FilterInput, FilterSpec, FilterTerm } from "./filters";
export { metadataToken } from "./metadata";
