import { useQuery } from "@urql/preact";
import type { ContentType, MemoryFilter, Tier } from "../../generated/graphql";
import { dayStart } from "../../ui/format";
import { FilterOptions } from "./documents";
import { CONTENT_TYPES, lower, TIERS } from "./options";

export interface FilterState {
  tier: string;
  contentType: string;
  tagId: string;
  entityId: string;
  createdAfter: string;
  createdBefore: string;
  rootsOnly: boolean;
}

export const NO_FILTER: FilterState = {
  tier: "",
  contentType: "",
  tagId: "",
  entityId: "",
  createdAfter: "",
  createdBefore: "",
  rootsOnly: true,
};

/** The API's filter for the form's state: empty fields are no filter. */
export function toMemoryFilter(f: FilterState): MemoryFilter {
  return {
    tier: (f.tier || undefined) as Tier | undefined,
    contentType: (f.contentType || undefined) as ContentType | undefined,
    tagIds: f.tagId ? [f.tagId] : undefined,
    entityId: f.entityId || undefined,
    createdAfter: dayStart(f.createdAfter),
    createdBefore: dayStart(f.createdBefore),
    root: f.rootsOnly ? true : undefined,
  };
}

/** The memory list's filters: tier, content type, tag, entity, creation dates, threads only. */
export function MemoryFilters({ value, onChange }: { value: FilterState; onChange: (f: FilterState) => void }) {
  const [{ data }] = useQuery({ query: FilterOptions });
  const set = (patch: Partial<FilterState>) => onChange({ ...value, ...patch });
  const select = (id: string, label: string, field: keyof FilterState, options: { value: string; label: string }[]) => (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value[field] as string} onChange={(e) => set({ [field]: e.currentTarget.value })}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form class="filters" aria-label="Memory filters" onSubmit={(e) => e.preventDefault()}>
      {select(
        "f-tier",
        "Tier",
        "tier",
        TIERS.map((t) => ({ value: t, label: lower(t) })),
      )}
      {select(
        "f-type",
        "Content type",
        "contentType",
        CONTENT_TYPES.map((t) => ({ value: t, label: lower(t) })),
      )}
      {select(
        "f-tag",
        "Tag",
        "tagId",
        (data?.tags?.items ?? []).map((t) => ({ value: t.id, label: t.name })),
      )}
      {select(
        "f-entity",
        "Entity",
        "entityId",
        (data?.entities?.items ?? []).map((e) => ({ value: e.id, label: `${e.name} (${lower(e.type)})` })),
      )}
      <div class="field">
        <label for="f-after">Created after</label>
        <input
          id="f-after"
          type="date"
          value={value.createdAfter}
          onChange={(e) => set({ createdAfter: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="f-before">Created before</label>
        <input
          id="f-before"
          type="date"
          value={value.createdBefore}
          onChange={(e) => set({ createdBefore: e.currentTarget.value })}
        />
      </div>
      <label class="check">
        <input
          type="checkbox"
          checked={value.rootsOnly}
          onChange={(e) => set({ rootsOnly: e.currentTarget.checked })}
        />
        Threads only (roots)
      </label>
    </form>
  );
}
