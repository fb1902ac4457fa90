import { describe, expect, test } from "bun:test";
import { GraphQLEnumType, parse, validate } from "graphql";
import { buildSchema } from "./schema";
import { ENUMS, enumName } from "./enums";
import { fanOutRule } from "./limits";
import type { EventHub } from "./events";

const schema = buildSchema({} as EventHub);

describe("schema", () => {
  test("every GraphQL enum is exactly its contract list, in order", () => {
    for (const [name, values] of Object.entries(ENUMS)) {
      const type = schema.getType(name);
      expect(type).toBeInstanceOf(GraphQLEnumType);
      expect((type as GraphQLEnumType).getValues().map((v) => [v.name, v.value])).toEqual(values.map((v) => [enumName(v), v]));
    }
  });

  test("every page type has items, total, limit, offset and hasMore", () => {
    for (const name of ["MemoryPage", "TagPage", "EntityPage", "ApiKeyPage"]) {
      const fields = (schema.getType(name) as any).getFields();
      expect(Object.keys(fields).sort()).toEqual(["hasMore", "items", "limit", "offset", "total"]);
    }
  });

  test("fields without a resolver read the contract's snake_case property", async () => {
    const field = (schema.getType("Memory") as any).getFields().memoryNature;
    expect(field.resolve({ memory_nature: "semantic" })).toBe("semantic");
    const hasMore = (schema.getType("TagPage") as any).getFields().hasMore;
    expect(hasMore.resolve({ items: [1], total: 3, limit: 1, offset: 1 })).toBe(true);
    expect(hasMore.resolve({ items: [1], total: 3, limit: 1, offset: 2 })).toBe(false);
  });
});

describe("fanOutRule: worst-case service calls", () => {
  const calls = (query: string, max = 1_000_000) => {
    const errors = validate(schema, parse(query), [fanOutRule(max)]);
    return errors.length ? Number(/make (\d+) service calls/.exec(errors[0]!.message)![1]) : 0;
  };
  const refusedAt0 = (query: string) => calls(query, 0);

  test("root fields cost one call each; batched fields one per level; per-parent fields one per parent", () => {
    expect(refusedAt0(`{ memories { total } tags { total } }`)).toBe(2);
    expect(refusedAt0(`{ memories(limit: 100) { items { parent { id } tags { id } entities { id } } } }`)).toBe(4);
    expect(refusedAt0(`{ memories(limit: 40) { items { children(limit: 5) { total } } } }`)).toBe(41);
    expect(refusedAt0(`{ memory(id: "x") { children(limit: 50) { items { tags { name } } } } }`)).toBe(3);
  });

  test("lists multiply the parents below them; a variable limit counts as 100", () => {
    expect(refusedAt0(`{ memories(limit: 10) { items { children(limit: 10) { items { children { total } } } } } }`)).toBe(1 + 10 + 100);
    expect(refusedAt0(`query($n: Int) { memories(limit: $n) { items { ancestors { id } } } }`)).toBe(101);
    expect(refusedAt0(`{ memories(limit: 2) { items { ancestors { children(limit: 1) { total } } } } }`)).toBe(1 + 2 + 2 * 64);
  });

  test("fragments and inline fragments are followed; a cycle does not hang", () => {
    expect(refusedAt0(`{ memories(limit: 3) { ...F } } fragment F on MemoryPage { items { ... on Memory { children { total } } } }`)).toBe(4);
    expect(() => validate(schema, parse(`{ memories { ...A } } fragment A on MemoryPage { ...B } fragment B on MemoryPage { ...A }`), [fanOutRule()])).not.toThrow();
  });

  test("within the limit there is no error", () => {
    expect(validate(schema, parse(`{ memories(limit: 100) { items { children(limit: 10) { total } } } }`), [fanOutRule(250)])).toEqual([]);
  });
});
