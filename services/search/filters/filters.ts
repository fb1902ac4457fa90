// The stored names alone, not ../store: the store reads through this folder.
import { ATTRS, FILTER_KINDS, type FilterKind } from "../store/fields";
import { metadataToken } from "./metadata";

/** The filters a search or context request may carry (validated by the contract's schema). */
export interface FilterInput {
  tier?: string;
  tags?: string[];
  tags_match?: "any" | "all";
  content_type?: string;
  memory_nature?: string;
  parent_memory_id?: string;
  entity_id?: string;
  created_after?: string;
  created_before?: string;
  occurred_after?: string;
  occurred_before?: string;
  latest_only?: boolean;
  as_of?: string;
  metadata?: Record<string, unknown>;
}

export interface FilterTerm {
  kind: FilterKind;
  value: string;
}

/**
 * Filters in normal form: every group is an OR of terms, groups are ANDed; created_at is the range
 * [after, before), occurred_at the range [occurredAfter, occurredBefore) and, for `as_of`, valid_to
 * must be later than validAfter. `groups` empty and no range = no filter.
 */
export interface FilterSpec {
  groups: FilterTerm[][];
  after?: number;
  before?: number;
  occurredAfter?: number;
  occurredBefore?: number;
  validAfter?: number;
}

export function toFilterSpec(f: FilterInput): FilterSpec {
  const groups: FilterTerm[][] = [];
  const one = (kind: FilterKind, value: string | undefined) => {
    if (value !== undefined) groups.push([{ kind, value }]);
  };
  one("tier", f.tier);
  one("ct", f.content_type);
  one("nat", f.memory_nature);
  one("parent", f.parent_memory_id);
  one("ent", f.entity_id);
  const tags = [...new Set(f.tags ?? [])];
  if (tags.length > 0) {
    if (f.tags_match === "all") for (const t of tags) groups.push([{ kind: "tag", value: t }]);
    else groups.push(tags.map((value) => ({ kind: "tag" as const, value })));
  }
  for (const [key, value] of Object.entries(f.metadata ?? {}))
    groups.push([{ kind: "meta", value: metadataToken(key, value) }]);
  if (f.latest_only === true) groups.push([{ kind: "latest", value: "1" }]);
  const ms = (iso: string | undefined) => (iso !== undefined ? Date.parse(iso) : undefined);
  // as_of: occurred by then (occurred_at <= as_of, i.e. < as_of + 1 ms), and not superseded by then.
  const asOf = ms(f.as_of);
  const before = ms(f.occurred_before);
  const occurredBefore = asOf === undefined ? before : Math.min(before ?? Infinity, asOf + 1);
  return {
    groups,
    after: ms(f.created_after),
    before: ms(f.created_before),
    occurredAfter: ms(f.occurred_after),
    occurredBefore,
    validAfter: asOf,
  };
}

export const hasFilters = (s: FilterSpec) => s.groups.length > 0 || hasRanges(s);

/** Whether a filter has a range (created_at, occurred_at, as_of), beyond its filter sets. */
export const hasRanges = (s: FilterSpec) =>
  s.after !== undefined ||
  s.before !== undefined ||
  s.occurredAfter !== undefined ||
  s.occurredBefore !== undefined ||
  s.validAfter !== undefined;

/** The filter-set suffix of a term: `tag:<id>` → key `s:{t:e}:f:tag:<id>`. */
export const suffixOf = (t: FilterTerm) => `${t.kind}:${t.value}`;

/** What may be quoted inside a FILTER expression: enum values, UUIDs and hex tokens, nothing else. */
const SAFE_LITERAL = /^[A-Za-z0-9_.:-]+$/;
export function literal(value: string): string {
  if (!SAFE_LITERAL.test(value)) throw new Error(`unsafe filter literal: ${JSON.stringify(value)}`);
  return `"${value}"`;
}

function termExpression(t: FilterTerm): string {
  const field = FILTER_KINDS[t.kind];
  return field.many ? `${literal(t.value)} in .${field.attr}` : `.${field.attr} == ${literal(t.value)}`;
}

/** The same filters as a VSIM FILTER expression over the attributes (null = no filter). */
export function toVsimFilter(s: FilterSpec): string | null {
  const parts = s.groups.map((g) =>
    g.length === 1 ? termExpression(g[0]!) : `(${g.map(termExpression).join(" or ")})`,
  );
  if (s.after !== undefined) parts.push(`.${ATTRS.createdMs} >= ${s.after}`);
  if (s.before !== undefined) parts.push(`.${ATTRS.createdMs} < ${s.before}`);
  if (s.occurredAfter !== undefined) parts.push(`.${ATTRS.occurredMs} >= ${s.occurredAfter}`);
  if (s.occurredBefore !== undefined) parts.push(`.${ATTRS.occurredMs} < ${s.occurredBefore}`);
  if (s.validAfter !== undefined) parts.push(`.${ATTRS.validToMs} > ${s.validAfter}`);
  return parts.length > 0 ? parts.join(" and ") : null;
}
