import type { InputHTMLAttributes } from "preact";
import { useQuery } from "@urql/preact";
import { useState } from "preact/hooks";
import type { ContentType, ContextFormat, MemoryNature, SearchInput, TagsMatch, Tier } from "../../generated/graphql";
import { dayStart, jsonObject, numberOrUndefined } from "../../ui/format";
import { ErrorLine } from "../../ui/notice";
import { FilterOptions } from "../memories/documents";
import { CONTENT_TYPES, lower, TIERS } from "../memories/options";

export interface ContextOptions {
  maxTokens?: number;
  neighbors?: number;
  includeAncestors: boolean;
  format: ContextFormat;
}

type Text = Record<
  | "query"
  | "limit"
  | "threshold"
  | "tier"
  | "contentType"
  | "memoryNature"
  | "parentMemoryId"
  | "entityId"
  | "createdAfter"
  | "createdBefore"
  | "occurredAfter"
  | "occurredBefore"
  | "asOf"
  | "metadata"
  | "maxTokens"
  | "neighbors",
  string
>;

const EMPTY = Object.fromEntries(
  [
    "query",
    "limit",
    "threshold",
    "tier",
    "contentType",
    "memoryNature",
    "parentMemoryId",
    "entityId",
    "createdAfter",
    "createdBefore",
    "occurredAfter",
    "occurredBefore",
    "asOf",
    "metadata",
    "maxTokens",
    "neighbors",
  ].map((k) => [k, ""]),
) as Text;

/** The search input for the form's fields: empty fields are left out, so the API's defaults apply. */
function toInput(t: Text, tags: string[], tagsMatch: TagsMatch, latestOnly: boolean): SearchInput {
  return {
    query: t.query,
    limit: numberOrUndefined(t.limit),
    threshold: numberOrUndefined(t.threshold),
    tier: (t.tier || undefined) as Tier | undefined,
    contentType: (t.contentType || undefined) as ContentType | undefined,
    memoryNature: (t.memoryNature || undefined) as MemoryNature | undefined,
    tags: tags.length ? tags : undefined,
    tagsMatch,
    parentMemoryId: t.parentMemoryId || undefined,
    entityId: t.entityId || undefined,
    createdAfter: dayStart(t.createdAfter),
    createdBefore: dayStart(t.createdBefore),
    occurredAfter: dayStart(t.occurredAfter),
    occurredBefore: dayStart(t.occurredBefore),
    asOf: dayStart(t.asOf),
    latestOnly,
    metadata: jsonObject(t.metadata),
  };
}

/** The playground's form: the query, every search filter, and the context's own options. */
export function SearchForm({ onRun }: { onRun: (search: SearchInput, context: ContextOptions) => void }) {
  const [{ data }] = useQuery({ query: FilterOptions });
  const [t, setT] = useState<Text>(EMPTY);
  const [tags, setTags] = useState<string[]>([]);
  const [tagsMatch, setTagsMatch] = useState<TagsMatch>("ANY");
  const [latestOnly, setLatestOnly] = useState(false);
  const [ancestors, setAncestors] = useState(true);
  const [format, setFormat] = useState<ContextFormat>("TEXT");
  const [invalid, setInvalid] = useState<string | null>(null);
  const input = (
    key: keyof Text,
    label: string,
    type: "text" | "number" | "date" = "text",
    extra: Record<string, unknown> = {},
  ) => (
    <div class="field">
      <label for={`s-${key}`}>{label}</label>
      <input
        {...({ id: `s-${key}`, type, value: t[key], ...extra } as InputHTMLAttributes<HTMLInputElement>)}
        onInput={(e) => setT({ ...t, [key]: e.currentTarget.value })}
      />
    </div>
  );
  const select = (key: keyof Text, label: string, options: { value: string; label: string }[]) => (
    <div class="field">
      <label for={`s-${key}`}>{label}</label>
      <select id={`s-${key}`} value={t[key]} onChange={(e) => setT({ ...t, [key]: e.currentTarget.value })}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
  const submit = (e: Event) => {
    e.preventDefault();
    try {
      const search = toInput(t, tags, tagsMatch, latestOnly);
      const context = { maxTokens: numberOrUndefined(t.maxTokens), neighbors: numberOrUndefined(t.neighbors) };
      setInvalid(null);
      onRun(search, { ...context, includeAncestors: ancestors, format });
    } catch (err) {
      setInvalid((err as Error).message);
    }
  };
  const enumOptions = (values: string[]) => values.map((v) => ({ value: v, label: lower(v) }));
  return (
    <form class="panel" onSubmit={submit} aria-label="Search">
      <div class="field wide">
        <label for="s-query">Query</label>
        <input
          id="s-query"
          type="search"
          required
          maxLength={4000}
          value={t.query}
          onInput={(e) => setT({ ...t, query: e.currentTarget.value })}
        />
      </div>
      <details>
        <summary>Filters and context options</summary>
        <div class="filters">
          {input("limit", "Limit (1–100)", "number", { min: 1, max: 100 })}
          {input("threshold", "Threshold (0–1)", "number", { min: 0, max: 1, step: 0.01 })}
          {select("tier", "Tier", enumOptions(TIERS))}
          {select("contentType", "Content type", enumOptions(CONTENT_TYPES))}
          {select("memoryNature", "Nature", enumOptions(["EPISODIC", "SEMANTIC"]))}
          {select(
            "entityId",
            "Entity",
            (data?.entities?.items ?? []).map((e) => ({ value: e.id, label: e.name })),
          )}
          {input("parentMemoryId", "Children of memory (id)")}
          {input("createdAfter", "Created from", "date")}
          {input("createdBefore", "Created before", "date")}
          {input("occurredAfter", "Occurred from", "date")}
          {input("occurredBefore", "Occurred before", "date")}
          {input("asOf", "Valid as of", "date")}
          {input("metadata", "Metadata equals (JSON object)")}
          {input("maxTokens", "Context token budget", "number", { min: 1, max: 32000 })}
          {input("neighbors", "Context neighbours (0–5)", "number", { min: 0, max: 5 })}
        </div>
        <fieldset>
          <legend>Tags</legend>
          {(data?.tags?.items ?? []).map((tag) => (
            <label key={tag.id} class="check">
              <input
                type="checkbox"
                checked={tags.includes(tag.id)}
                onChange={(e) =>
                  setTags(e.currentTarget.checked ? [...tags, tag.id] : tags.filter((x) => x !== tag.id))
                }
              />
              {tag.name}
            </label>
          ))}
          <label class="check">
            <input
              type="checkbox"
              checked={tagsMatch === "ALL"}
              onChange={(e) => setTagsMatch(e.currentTarget.checked ? "ALL" : "ANY")}
            />
            Every chosen tag (not any)
          </label>
        </fieldset>
        <label class="check">
          <input type="checkbox" checked={latestOnly} onChange={(e) => setLatestOnly(e.currentTarget.checked)} />
          Latest only (not superseded)
        </label>
        <label class="check">
          <input type="checkbox" checked={ancestors} onChange={(e) => setAncestors(e.currentTarget.checked)} />
          Context: include ancestors
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={format === "MARKDOWN"}
            onChange={(e) => setFormat(e.currentTarget.checked ? "MARKDOWN" : "TEXT")}
          />
          Context as Markdown
        </label>
      </details>
      <ErrorLine message={invalid} />
      <button type="submit">Search</button>
    </form>
  );
}
