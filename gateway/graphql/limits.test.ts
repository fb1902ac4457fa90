import { describe, expect, test } from "bun:test";
import { getIntrospectionQuery, type GraphQLError, Kind, parse } from "graphql";
import { buildSchema } from "./schema";
import type { EventHub } from "./events";
import { LIMITS, limitErrors, parseWithTokenLimit } from "./limits";
import { measureDocument } from "./measure";

const schema = buildSchema({} as EventHub);
const measure = (query: string) => measureDocument(schema, parse(query)).operations[0]!;
const constraints = (query: string) => limitErrors(schema, parse(query)).map((e) => e.extensions.constraint);

/** `levels` fragments, each spreading the one before `width` times: 3^129 copies of the leaf at 130 levels. */
export function fanOut(levels: number, { on = "Query", leaf = "__typename", width = 3, tag = "F" } = {}) {
  let text = `fragment ${tag}1 on ${on} { ${leaf} }\n`;
  for (let i = 2; i <= levels; i++) text += `fragment ${tag}${i} on ${on} { ${`...${tag}${i - 1} `.repeat(width)}}\n`;
  return { spread: `...${tag}${levels}`, fragments: text };
}

describe("worst-case service calls", () => {
  const calls = (query: string) => measure(query).calls;

  test("root fields: one call each; per-parent fields: one per parent; batched: ⌈parents / 100⌉ at most", () => {
    expect(calls(`{ memories { total } tags { total } }`)).toBe(2);
    expect(calls(`{ memories(limit: 40) { items { children(limit: 5) { total } } } }`)).toBe(41);
    // A batched field is priced (parents + 99) / 100 so that a fragment's price does not depend on its
    // parents' count: 1 + 3 × 1.99 here, where the loaders make 1 + 3.
    expect(calls(`{ memories(limit: 100) { items { parent { id } tags { id } entities { id } } } }`)).toBe(6);
    expect(calls(`{ memory(id: "x") { children(limit: 50) { items { tags { name } } } } }`)).toBe(3);
  });

  test("lists multiply the parents below them; a variable limit counts as 100", () => {
    expect(calls(`{ memories(limit: 10) { items { children(limit: 10) { items { children { total } } } } } }`)).toBe(
      1 + 10 + 100,
    );
    expect(calls(`query($n: Int) { memories(limit: $n) { items { ancestors { id } } } }`)).toBe(101);
    expect(calls(`{ memories(limit: 2) { items { ancestors { children(limit: 1) { total } } } } }`)).toBe(
      1 + 2 + 2 * 64,
    );
  });

  test("fragments and inline fragments are followed, a fragment's price scales with where it is spread", () => {
    expect(
      calls(
        `{ memories(limit: 3) { ...F } } fragment F on MemoryPage { items { ... on Memory { children { total } } } }`,
      ),
    ).toBe(4);
    const twice = `{ a: memories(limit: 3) { ...F } b: memories(limit: 50) { items { children(limit: 2) { ...F } } } }
      fragment F on MemoryPage { items { children { total } } }`;
    expect(calls(twice)).toBe(1 + 3 + 1 + 50 + 50 * 2);
  });

  test("over the limit: refused with the count", () => {
    const [e] = limitErrors(
      schema,
      parse(`{ memories(limit: 100) { items { children(limit: 100) { items { children { total } } } } } }`),
    );
    expect(e!.message).toBe(
      "Query too expensive: it could make 10101 service calls, the limit is 250. " +
        "Lower the `limit` of nested lists or split the query.",
    );
    expect(e!.extensions).toEqual({ constraint: "max_calls", limit: 250 });
    expect(limitErrors(schema, parse(`{ memories(limit: 100) { items { children(limit: 2) { total } } } }`))).toEqual(
      [],
    );
  });
});

describe("depth, aliases, directives, cost", () => {
  test("depth counts fields; fragments add no level", () => {
    expect(measure(`{ memories { items { id } } }`).depth).toBe(3);
    expect(
      measure(
        "{ ...A } fragment A on Query { memories { ...B } } " +
          "fragment B on MemoryPage { items { ... on Memory { id } } }",
      ).depth,
    ).toBe(3);
  });

  test("aliases and directives are counted once per use of their fragment; aliases of __typename are free", () => {
    const m = measure(
      `{ ...A ...A x: __typename } fragment A on Query @skip(if: false) { a: memories { total @include(if: true) } }`,
    );
    expect(m.aliases).toBe(2);
    expect(m.directives).toBe(4);
  });

  test("graphql-armor's cost: leaf 1, field 2 + 1.5 × selections, spread 1 + 1.5 × (2 + 1.5 × fragment's)", () => {
    expect(measure(`{ memories { items { id } } }`).cost).toBe(2 + 1.5 * (2 + 1.5 * 1));
    expect(measure(`{ ...A } fragment A on Query { __typename }`).cost).toBe(1 + 1.5 * (2 + 1.5 * 1));
    expect(
      measure(`{ memories { items { ${"parent { ".repeat(6)}${"id ".repeat(200)}${"}".repeat(6)} } } }`).cost,
    ).toBe(5224.296875);
  });

  test("introspection: one level deep, priced per expanded field; GraphiQL's query passes", () => {
    const m = measure(
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
      }),
    );
    expect(m.depth).toBe(1);
    expect(m.cost).toBe(m.fields);
    expect(m.cost).toBeLessThan(LIMITS.maxCost / 10);
    expect(limitErrors(schema, parse(getIntrospectionQuery()))).toEqual([]);
  });

  test("a document breaking several limits names them all", () => {
    const aliases = Array.from(
      { length: 16 },
      (_, i) => `a${i}: memories(limit: 1) { items { ${"parent { ".repeat(10)}id${" }".repeat(10)} } }`,
    ).join(" ");
    expect(constraints(`{ ${aliases} }`)).toEqual(["max_depth", "max_aliases", "max_cost"]);
  });
});

describe("fragment fan-out: every limit in time linear in the document", () => {
  test("130 levels of 3 spreads: measured at once, the counts are the expanded ones", () => {
    const { spread, fragments } = fanOut(130, { leaf: "a: memories { total }" });
    const document = parse(`{ ${spread} }\n${fragments}`);
    const started = performance.now();
    const m = measureDocument(schema, document).operations[0]!;
    const errors = limitErrors(schema, document);
    expect(performance.now() - started).toBeLessThan(50); // without memoising: 3^129 steps
    expect(m.aliases / 3 ** 129).toBeCloseTo(1, 9);
    expect(m.calls).toBeGreaterThan(3 ** 128);
    expect(errors.map((e) => e.extensions.constraint)).toEqual(["max_aliases", "max_cost", "max_calls"]);
  });

  test("under an introspection field too (its fields have no depth factor, not no price)", () => {
    const { spread, fragments } = fanOut(130, { on: "__Type", leaf: "name" });
    expect(constraints(`{ __schema { types { ${spread} } } }\n${fragments}`)).toEqual(["max_cost"]);
  });

  test("a fragment cycle is refused with graphql-js's message, without hanging", () => {
    const errors = limitErrors(
      schema,
      parse(`{ ...A } fragment A on Query { ...B memories { total } } fragment B on Query { ...A }`),
    );
    expect(errors.map((e) => e.message)).toEqual(['Cannot spread fragment "A" within itself via "B".']);
  });
});

describe("token limit", () => {
  test("more than 2000 tokens are refused while parsing", () => {
    expect(parseWithTokenLimit(`{ memories { ${"total ".repeat(1995)} } }`).kind).toBe(Kind.DOCUMENT);
    let thrown: unknown;
    try {
      parseWithTokenLimit(`{ memories { ${"total ".repeat(1997)} } }`);
    } catch (err) {
      thrown = err;
    }
    expect((thrown as GraphQLError).message).toBe("Token limit of 2000 exceeded.");
    expect((thrown as GraphQLError).extensions).toEqual({ constraint: "max_tokens", limit: 2000 });
    expect(() => parseWithTokenLimit(`{ memories { total `)).toThrow("Syntax Error: Expected Name, found <EOF>.");
  });
});
