import {
  getNamedType,
  GraphQLError,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";

/**
 * The spec's "Field Selection Merging" rule (graphql-js's OverlappingFieldsCanBeMerged, same
 * messages), in time linear in the document with its fragments expanded. graphql-js compares
 * fields pairwise: 400 × `items { id }` in one selection took it ~100 ms, 200 fragments spread
 * side by side ~70 ms. Here the fields of one response name are compared with the first of them
 * (the relation is an equivalence), then all their sub-selections are merged and checked as one
 * set: each expanded field is visited once. Run only on documents within the cost limit, which
 * bounds their expanded size, and free of fragment cycles.
 */

interface Collected {
  node: FieldNode;
  parent: GraphQLNamedType | undefined;
  def: GraphQLField<unknown, unknown> | undefined;
}

interface Conflict {
  responseName: string;
  reason: string;
  nodes: FieldNode[];
}

/** A value as graphql-js compares arguments: variables by name, object fields in any order. */
function valueKey(value: ValueNode): string {
  switch (value.kind) {
    case Kind.VARIABLE:
      return `$${value.name.value}`;
    case Kind.LIST:
      return `[${value.values.map(valueKey).join(",")}]`;
    case Kind.OBJECT: {
      const fields = value.fields.map((f) => `${JSON.stringify(f.name.value)}:${valueKey(f.value)}`);
      return `{${fields.sort().join(",")}}`;
    }
    case Kind.STRING:
      return `${value.block ? "B" : "S"}${JSON.stringify(value.value)}`;
    case Kind.NULL:
      return "null";
    default:
      return `${value.kind}:${value.value}`;
  }
}

const argumentsKey = (args: readonly ArgumentNode[] | undefined) =>
  (args ?? [])
    .map((a) => `${a.name.value}=${valueKey(a.value)}`)
    .sort()
    .join("|");

/** Whether two output types could not both describe one response value (graphql-js's doTypesConflict). */
function typesConflict(a: GraphQLOutputType, b: GraphQLOutputType): boolean {
  if (a === b) return false;
  if (isListType(a) || isListType(b)) return !isListType(a) || !isListType(b) || typesConflict(a.ofType, b.ofType);
  if (isNonNullType(a) || isNonNullType(b)) {
    return !isNonNullType(a) || !isNonNullType(b) || typesConflict(a.ofType, b.ofType);
  }
  return isLeafType(a) || isLeafType(b);
}

/** Why `b` cannot be merged with `a` (same response name), or null. */
function conflictOf(a: Collected, b: Collected, exclusive: boolean): string | null {
  // Fields of two different object types never apply to the same object: they may differ.
  const apart = exclusive || (a.parent !== b.parent && isObjectType(a.parent) && isObjectType(b.parent));
  if (!apart) {
    const [name1, name2] = [a.node.name.value, b.node.name.value];
    if (name1 !== name2) return `"${name1}" and "${name2}" are different fields`;
    if (argumentsKey(a.node.arguments) !== argumentsKey(b.node.arguments)) return "they have differing arguments";
  }
  if (a.def && b.def && typesConflict(a.def.type, b.def.type)) {
    return `they return conflicting types "${a.def.type}" and "${b.def.type}"`;
  }
  return null;
}

export function mergeConflicts(schema: GraphQLSchema, document: DocumentNode, maxErrors = 100): GraphQLError[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);

  const collect = (set: SelectionSetNode, parent: GraphQLNamedType | undefined, into: Collected[]): Collected[] => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[sel.name.value] : undefined;
        into.push({ node: sel, parent, def });
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        collect(sel.selectionSet, sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent, into);
      } else {
        const frag = fragments.get(sel.name.value);
        if (frag) collect(frag.selectionSet, schema.getType(frag.typeCondition.name.value), into);
      }
    }
    return into;
  };

  const check = (fields: Collected[], exclusive: boolean): Conflict[] => {
    const byName = new Map<string, Collected[]>();
    for (const f of fields) {
      const name = f.node.alias?.value ?? f.node.name.value;
      const group = byName.get(name);
      if (group) group.push(f);
      else byName.set(name, [f]);
    }
    const conflicts: Conflict[] = [];
    for (const [responseName, group] of byName) {
      const first = group[0]!;
      let parents = false;
      for (const f of group.slice(1)) {
        parents ||= f.parent !== first.parent;
        const reason = conflictOf(first, f, exclusive);
        if (reason) conflicts.push({ responseName, reason, nodes: [first.node, f.node] });
      }
      const below: Collected[] = [];
      for (const f of group) {
        if (f.node.selectionSet) collect(f.node.selectionSet, f.def ? getNamedType(f.def.type) : undefined, below);
      }
      if (below.length === 0) continue;
      // Sub-fields of fields on different object types may differ as their parents may.
      const inner = check(below, exclusive || (parents && group.every((f) => isObjectType(f.parent))));
      if (group.length === 1) conflicts.push(...inner);
      else {
        for (const c of inner) {
          const reason = `subfields "${c.responseName}" conflict because ${c.reason}`;
          conflicts.push({ responseName, reason, nodes: [first.node, ...c.nodes] });
        }
      }
    }
    return conflicts;
  };

  const errors: GraphQLError[] = [];
  const seen = new Set<string>();
  const report = (conflicts: Conflict[]) => {
    for (const c of conflicts) {
      const key = `${c.responseName} ${c.reason} ${c.nodes.map((n) => n.loc?.start).join(",")}`;
      if (seen.has(key) || errors.length >= maxErrors) continue;
      seen.add(key);
      const message =
        `Fields "${c.responseName}" conflict because ${c.reason}. ` +
        "Use different aliases on the fields to fetch both if this was intentional.";
      errors.push(new GraphQLError(message, { nodes: c.nodes }));
    }
  };
  for (const def of document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = schema.getRootType(def.operation) ?? undefined;
    report(check(collect(def.selectionSet, root, []), false));
  }
  return errors;
}
