import {
  GraphQLError,
  NoFragmentCyclesRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ParseOptions,
  type Source,
  type ValidationRule,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { measureDocument, type OperationMeasure } from "./measure";
import { mergeConflicts } from "./merge";

/** Limits against abusive documents; all are checked before any resolver runs. */
export const LIMITS = {
  maxDepth: 10,
  maxAliases: 15,
  /** graphql-armor's static cost formula (see `Measure.cost`), fragments expanded. */
  maxCost: 5000,
  maxTokens: 2000,
  maxDirectives: 50,
  /** Our list-aware bound: service calls the query could make in the worst case (see measure.ts). */
  maxCalls: 250,
} as const;

/** A refusal: `finishError` turns `constraint` and `limit` into `details: {field: "query", constraint, max}`. */
const refusal = (message: string, constraint: string, limit: number, node?: OperationDefinitionNode) =>
  new GraphQLError(message, { nodes: node ? [node] : undefined, extensions: { constraint, limit } });

/** graphql-js words it "Document contains more that 2000 tokens. Parsing aborted." (sic). */
const TOKEN_LIMIT_RE = /contains more th(?:an|at) \d+ tokens/;

/** graphql-js's parser with the token limit: it stops lexing at the first token over it. */
export function parseWithTokenLimit(source: string | Source, options?: ParseOptions): DocumentNode {
  try {
    return parse(source, { ...options, maxTokens: LIMITS.maxTokens });
  } catch (err) {
    if (TOKEN_LIMIT_RE.test((err as Error).message)) {
      throw refusal(`Token limit of ${LIMITS.maxTokens} exceeded.`, "max_tokens", LIMITS.maxTokens);
    }
    throw err;
  }
}

function operationRefusals(m: OperationMeasure, max: typeof LIMITS): GraphQLError[] {
  const errors: GraphQLError[] = [];
  const check = (found: number, limit: number, constraint: string, message: string) => {
    if (found > limit) errors.push(refusal(message, constraint, limit, m.node));
  };
  check(m.depth, max.maxDepth, "max_depth", `Query depth limit of ${max.maxDepth} exceeded, found ${m.depth}.`);
  check(m.aliases, max.maxAliases, "max_aliases", `Aliases limit of ${max.maxAliases} exceeded, found ${m.aliases}.`);
  const directives = `Directives limit of ${max.maxDirectives} exceeded, found ${m.directives}.`;
  check(m.directives, max.maxDirectives, "max_directives", directives);
  check(m.cost, max.maxCost, "max_cost", `Query Cost limit of ${max.maxCost} exceeded, found ${m.cost}.`);
  const calls =
    `Query too expensive: it could make ${m.calls} service calls, the limit is ${max.maxCalls}. ` +
    "Lower the `limit` of nested lists or split the query.";
  check(m.calls, max.maxCalls, "max_calls", calls);
  return errors;
}

/**
 * Every limit of every operation, measured in one pass linear in the document. A query breaking
 * several limits is refused with all of them. A fragment cycle is refused with graphql-js's own
 * NoFragmentCycles errors (an infinite document has no measure).
 */
export function limitErrors(
  schema: GraphQLSchema,
  document: DocumentNode,
  max: typeof LIMITS = LIMITS,
): readonly GraphQLError[] {
  const { cyclic, operations } = measureDocument(schema, document);
  if (cyclic) return validate(schema, document, [NoFragmentCyclesRule]);
  return operations.flatMap((m) => operationRefusals(m, max));
}

/** graphql-js's field-merging rule, pairwise hence quadratic: replaced by `mergeConflicts`. */
const PAIRWISE_MERGE_RULE = "OverlappingFieldsCanBeMergedRule";

/**
 * The limits as a yoga plugin. The token limit is the parser's; the others run before graphql-js's
 * validation rules, so a refused document never reaches them nor the JIT compiler, whose work grows
 * with the document's expanded size. graphql-js's field-merging rule is replaced by a linear one.
 */
export const useLimits = (): Plugin => ({
  onParse({ setParseFn }) {
    setParseFn(parseWithTokenLimit);
  },
  onValidate({ validateFn, setValidationFn }) {
    setValidationFn((schema, document, rules, ...rest) => {
      const refused = limitErrors(schema, document);
      if (refused.length) return refused;
      const all = (rules ?? specifiedRules) as readonly ValidationRule[];
      const linear = all.filter((rule) => rule.name !== PAIRWISE_MERGE_RULE);
      return [...validateFn(schema, document, linear, ...rest), ...mergeConflicts(schema, document)];
    });
  },
});
