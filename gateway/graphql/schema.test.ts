import { describe, expect, test } from "bun:test";
import { GraphQLEnumType } from "graphql";
import { buildSchema } from "./schema";
import { ENUMS, enumName } from "./enums";
import type { EventHub } from "./events";

const schema = buildSchema({} as EventHub);

describe("schema", () => {
  test("every GraphQL enum is exactly its contract list, in order", () => {
    for (const [name, values] of Object.entries(ENUMS)) {
      const type = schema.getType(name);
      expect(type).toBeInstanceOf(GraphQLEnumType);
      expect((type as GraphQLEnumType).getValues().map((v) => [v.name, v.value])).toEqual(
        values.map((v) => [enumName(v), v]),
      );
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
