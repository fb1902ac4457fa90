import {
  getNamedType,
  GraphQLError,
  GraphQLObjectType,
  isListType,
  isNonNullType,
  Kind,
  type ASTVisitor,
  type GraphQLOutputType,
  type SelectionSetNode,
  type ValidationContext,
} from "graphql";
import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import type { GraphQLArmorCallbackConfiguration } from "@escape.tech/graphql-armor-types";
import type { Plugin } from "graphql-yoga";
import { MAX_HIERARCHY_DEPTH } from "../../services/contract/memories";
import { MAX_TAGS_PER_MEMORY } from "../../services/contract/tags";
import { SEARCH_LIMIT_MAX } from "../../services/contract/search";

/** Limits against abusive documents; all are checked before any resolver runs. */
export const LIMITS = {
  maxDepth: 10,
  maxAliases: 15,
  /** graphql-armor's static cost: every field of the document, weighted by depth. */
  maxCost: 5000,
  maxTokens: 2000,
  maxDirectives: 50,
  /** Our list-aware bound: service calls the query could make in the worst case (see fanOutRule). */
  maxCalls: 250,
} as const;

/**
 * A refusal leaves with `details: {field: "query", constraint, max}`. Validation-time refusals are
 * reported (not thrown), so a query breaking several limits names them all, its depth included.
 */
const refuse = (constraint: string, limit: number, report: boolean): Pick<GraphQLArmorCallbackConfiguration, "onReject" | "propagateOnRejection"> => ({
  propagateOnRejection: !report,
  onReject: [
    (ctx, err) => {
      Object.assign(err.extensions as Record<string, unknown>, { constraint, limit });
      if (report) ctx?.reportError(err);
    },
  ],
});

export const armorPlugin = (): Plugin =>
  EnvelopArmorPlugin({
    maxDepth: { n: LIMITS.maxDepth, ...refuse("max_depth", LIMITS.maxDepth, true) },
    maxAliases: { n: LIMITS.maxAliases, ...refuse("max_aliases", LIMITS.maxAliases, true) },
    costLimit: { maxCost: LIMITS.maxCost, ...refuse("max_cost", LIMITS.maxCost, true) },
    // Counted while parsing, before there is a validation context: thrown.
    maxTokens: { n: LIMITS.maxTokens, ...refuse("max_tokens", LIMITS.maxTokens, false) },
    maxDirectives: { n: LIMITS.maxDirectives, ...refuse("max_directives", LIMITS.maxDirectives, true) },
    // Every caller is authenticated: suggestions ("Did you mean…") help frontend engineers, keep them.
    blockFieldSuggestion: { enabled: false },
  }) as Plugin;

/** Fields that make one service call per parent object (no batch operation behind them). */
const PER_PARENT = new Set(["Memory.children", "Memory.ancestors", "Tag.memories", "Entity.memories"]);
/** Fields served by a per-request DataLoader: one batch call per level (per 100 parents). */
const BATCHED = new Set(["Memory.parent", "Memory.tags", "Memory.entities", "MemoryEvent.memory", "AttachTagsPayload.tags", "AttachTagsPayload.memory", "DetachTagPayload.memory", "LinkEntityMemoriesPayload.entity", "UnlinkEntityMemoryPayload.entity"]);
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

const isPage = (type: GraphQLOutputType) => getNamedType(type).name.endsWith("Page");
const isList = (type: GraphQLOutputType) => isListType(isNonNullType(type) ? type.ofType : type);

/**
 * graphql-armor's cost ignores list sizes, yet `memories(limit: 100) { items { children(limit: 100) {
 * items { children … } } } }` fans out to 10,000 calls. This rule bounds the worst case: each
 * per-parent field costs one call per parent, each batched field one call per level, and a page or
 * list multiplies the parents below it by its `limit` (a literal; otherwise the maximum).
 */
export function fanOutRule(max: number = LIMITS.maxCalls) {
  return (context: ValidationContext): ASTVisitor => {
    const schema = context.getSchema();
    const walk = (set: SelectionSetNode, type: GraphQLObjectType, parents: number, pageSize: number, fragments: Set<string>): number => {
      let calls = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FRAGMENT_SPREAD) {
          const frag = context.getFragment(sel.name.value);
          if (!frag || fragments.has(frag.name.value)) continue; // unknown or cyclic: other rules report it
          const on = schema.getType(frag.typeCondition.name.value);
          if (on instanceof GraphQLObjectType) calls += walk(frag.selectionSet, on, parents, pageSize, new Set(fragments).add(frag.name.value));
          continue;
        }
        if (sel.kind === Kind.INLINE_FRAGMENT) {
          const on = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type;
          if (on instanceof GraphQLObjectType) calls += walk(sel.selectionSet, on, parents, pageSize, fragments);
          continue;
        }
        const field = type.getFields()[sel.name.value];
        if (!field || !sel.selectionSet) continue;
        const coord = `${type.name}.${field.name}`;
        if (PER_PARENT.has(coord)) calls += parents;
        else if (BATCHED.has(coord)) calls += Math.ceil(parents / BATCH);
        else if (type === schema.getQueryType() || type === schema.getMutationType() || type === schema.getSubscriptionType()) calls += 1;
        const named = getNamedType(field.type);
        if (!(named instanceof GraphQLObjectType)) continue;
        let below = parents;
        let size = PAGE_MAX;
        if (isPage(field.type)) {
          const limit = sel.arguments?.find((a) => a.name.value === "limit")?.value;
          size = limit?.kind === Kind.INT ? Math.max(1, Math.min(PAGE_MAX, Number(limit.value))) : PAGE_MAX;
        } else if (isList(field.type)) below = parents * (field.name === "items" ? pageSize : (LIST_MAX[coord] ?? DEFAULT_LIST_MAX));
        calls += walk(sel.selectionSet, named, below, size, fragments);
      }
      return calls;
    };
    return {
      OperationDefinition(node) {
        const root = node.operation === "query" ? schema.getQueryType() : node.operation === "mutation" ? schema.getMutationType() : schema.getSubscriptionType();
        if (!root) return;
        const calls = walk(node.selectionSet, root, 1, PAGE_MAX, new Set());
        if (calls > max) {
          context.reportError(
            new GraphQLError(
              `Query too expensive: it could make ${calls} service calls, the limit is ${max}. Lower the \`limit\` of nested lists or split the query.`,
              { nodes: [node], extensions: { constraint: "max_calls", limit: max } },
            ),
          );
        }
      },
    };
  };
}

export const useFanOutLimit = (): Plugin => ({
  onValidate({ addValidationRule }) {
    addValidationRule(fanOutRule());
  },
});
