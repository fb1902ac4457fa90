import {
  getNamedType,
  GraphQLObjectType,
  isListType,
  isNonNullType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { MAX_HIERARCHY_DEPTH } from "../../services/contract/memories";
import { MAX_TAGS_PER_MEMORY } from "../../services/contract/tags";
import { SEARCH_LIMIT_MAX } from "../../services/contract/search";

/** Fields that make one service call per parent object (no batch operation behind them). */
const PER_PARENT = new Set(["Memory.children", "Memory.ancestors", "Tag.memories", "Entity.memories"]);
/** Fields served by a per-request DataLoader: one batch call per 100 parents. */
const BATCHED = new Set([
  "Memory.parent",
  "Memory.tags",
  "Memory.entities",
  "MemoryEvent.memory",
  "AttachTagsPayload.tags",
  "AttachTagsPayload.memory",
  "DetachTagPayload.memory",
  "LinkEntityMemoriesPayload.entity",
  "UnlinkEntityMemoryPayload.entity",
]);
/** Longest a non-page list can be. */
const LIST_MAX: Record<string, number> = {
  "Memory.ancestors": MAX_HIERARCHY_DEPTH,
  "Memory.tags": MAX_TAGS_PER_MEMORY,
  "AttachTagsPayload.tags": MAX_TAGS_PER_MEMORY,
  "SearchResult.results": SEARCH_LIMIT_MAX,
};
const DEFAULT_LIST_MAX = 100;
/** Pages hold at most REST's largest `limit`. */
const PAGE_MAX = 100;
const BATCH = 100;
/** Introspection's entry points: priced per field, without the depth factor (see `cost`). */
const INTROSPECTION = new Set(["__schema", "__type"]);

/**
 * Worst-case service calls of a selection set as a function of the number of parent objects `p` and
 * the page size `s` of the page it selects on: `p · (perItem · s + perParent) + fixed`, counted in
 * hundredths of a call. Affine in `p`, so a fragment is priced once whatever multiplies it; a batched
 * field's ⌈p / 100⌉ is bounded by (p + 99) / 100.
 */
interface Calls {
  perItem: number;
  perParent: number;
  fixed: number;
}

/** What one selection set (fragments expanded) weighs. */
export interface Measure {
  /** Field nesting; fragments add no level. An introspection entry point counts as one level. */
  depth: number;
  /** Aliased fields, `__typename` excepted. */
  aliases: number;
  directives: number;
  /**
   * graphql-armor's static cost: a leaf 1, a field with a selection 2 + 1.5 × its selections, a
   * spread 1 + 1.5 × (2 + 1.5 × its fragment's selections); an operation the sum of its selections.
   */
  cost: number;
  /** Fields once fragments are expanded: the price of introspection, whose types nest deep. */
  fields: number;
  calls: Calls;
}

export interface OperationMeasure extends Omit<Measure, "calls"> {
  node: OperationDefinitionNode;
  /** Worst-case service calls, whole calls. */
  calls: number;
}

const empty = (): Measure => ({
  depth: 0,
  aliases: 0,
  directives: 0,
  cost: 0,
  fields: 0,
  calls: { perItem: 0, perParent: 0, fixed: 0 },
});

const isPage = (type: GraphQLOutputType) => getNamedType(type).name.endsWith("Page");
const isList = (type: GraphQLOutputType) => isListType(isNonNullType(type) ? type.ofType : type);

/** Adds a selection's measure to its set's. */
function add(into: Measure, m: Measure, cost: number): void {
  into.depth = Math.max(into.depth, m.depth);
  into.aliases += m.aliases;
  into.directives += m.directives;
  into.cost += cost;
  into.fields += m.fields;
  into.calls.perItem += m.calls.perItem;
  into.calls.perParent += m.calls.perParent;
  into.calls.fixed += m.calls.fixed;
}

/**
 * Measures every operation of a document in one pass, in time linear in the document: each
 * fragment is measured once and its measure reused at every spread, so a fragment spread three
 * times by one spread three times by… costs nothing to price however large it expands. A fragment
 * cycle is reported (`cyclic`) and its back edge priced as nothing; graphql-js's NoFragmentCycles
 * names it.
 */
export function measureDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
): { cyclic: boolean; operations: OperationMeasure[] } {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const measured = new Map<string, Measure | "visiting">();
  let cyclic = false;
  const roots = new Set<GraphQLObjectType>();
  for (const op of [OperationTypeNode.QUERY, OperationTypeNode.MUTATION, OperationTypeNode.SUBSCRIPTION]) {
    const root = schema.getRootType(op);
    if (root) roots.add(root);
  }
  const objectType = (name: string) => {
    const type = schema.getType(name);
    return type instanceof GraphQLObjectType ? type : undefined;
  };

  const fragment = (name: string): Measure | undefined => {
    const known = measured.get(name);
    if (known === "visiting") cyclic = true;
    if (known) return known === "visiting" ? undefined : known;
    const def = fragments.get(name);
    if (!def) return undefined; // unknown: graphql-js's KnownFragmentNames reports it
    measured.set(name, "visiting");
    const m = selections(def.selectionSet, objectType(def.typeCondition.name.value));
    m.directives += def.directives?.length ?? 0;
    measured.set(name, m);
    return m;
  };

  const field = (node: FieldNode, type: GraphQLObjectType | undefined): Measure => {
    const name = node.name.value;
    const m = empty();
    m.aliases = node.alias && node.alias.value !== "__typename" && name !== "__typename" ? 1 : 0;
    m.directives = node.directives?.length ?? 0;
    m.fields = 1;
    m.depth = 1;
    m.cost = 1;
    if (!node.selectionSet) return m;
    const def = type?.getFields()[name];
    const named = def ? getNamedType(def.type) : undefined;
    const below = selections(node.selectionSet, named instanceof GraphQLObjectType ? named : undefined);
    m.aliases += below.aliases;
    m.directives += below.directives;
    m.fields += below.fields;
    if (INTROSPECTION.has(name)) {
      m.cost = m.fields;
      return m;
    }
    m.depth += below.depth;
    m.cost = 2 + 1.5 * below.cost;
    if (!def || !type) return m;
    const coord = `${type.name}.${name}`;
    if (PER_PARENT.has(coord)) m.calls.perParent += BATCH;
    else if (BATCHED.has(coord)) {
      m.calls.perParent += 1;
      m.calls.fixed += BATCH - 1;
    } else if (roots.has(type)) m.calls.fixed += BATCH;
    if (!(named instanceof GraphQLObjectType)) return m;
    // The parents below are p (an object), p · s (a page's items) or p · the list's longest; a page
    // sets the size its own selections see: its literal `limit`, else the largest.
    const c = below.calls;
    const itemCalls = c.perItem * PAGE_MAX + c.perParent;
    m.calls.fixed += c.fixed;
    if (isPage(def.type)) {
      const limit = node.arguments?.find((a) => a.name.value === "limit")?.value;
      const size = limit?.kind === Kind.INT ? Math.max(1, Math.min(PAGE_MAX, Number(limit.value))) : PAGE_MAX;
      m.calls.perParent += c.perItem * size + c.perParent;
    } else if (isList(def.type) && name === "items") m.calls.perItem += itemCalls;
    else if (isList(def.type)) m.calls.perParent += itemCalls * (LIST_MAX[coord] ?? DEFAULT_LIST_MAX);
    else m.calls.perParent += itemCalls;
    return m;
  };

  const selections = (set: SelectionSetNode, type: GraphQLObjectType | undefined): Measure => {
    const m = empty();
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const f = field(sel, type);
        add(m, f, f.cost);
      } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragment(sel.name.value) ?? empty();
        add(m, f, 1 + 1.5 * (2 + 1.5 * f.cost));
        m.directives += sel.directives?.length ?? 0;
      } else {
        const on = sel.typeCondition ? objectType(sel.typeCondition.name.value) : type;
        const f = selections(sel.selectionSet, on);
        add(m, f, 2 + 1.5 * f.cost);
        m.directives += sel.directives?.length ?? 0;
      }
    }
    return m;
  };

  const operations: OperationMeasure[] = [];
  for (const node of document.definitions) {
    if (node.kind !== Kind.OPERATION_DEFINITION) continue;
    const m = selections(node.selectionSet, schema.getRootType(node.operation) ?? undefined);
    const c = m.calls;
    const calls = Math.floor((c.perItem * PAGE_MAX + c.perParent + c.fixed) / BATCH);
    operations.push({ ...m, node, directives: m.directives + (node.directives?.length ?? 0), calls });
  }
  return { cyclic, operations };
}
