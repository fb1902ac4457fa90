import { describe, expect, test } from "bun:test";
import { pathFieldsOf } from "./route";
import { restRoutes } from "./routes";

describe("the REST route table", () => {
  test("operationIds are unique", () => {
    const ids = restRoutes.map((r) => r.operationId);
    expect(ids.length).toBe(new Set(ids).size);
  });

  test("operationIds read as a verb and a noun, not as the path (getV1MemoriesById)", () => {
    for (const r of restRoutes) {
      expect(r.operationId).toMatch(/^[a-z]+(?:[A-Z][a-z]+)+$/);
      expect(r.operationId).not.toMatch(/V1|By[A-Z]/);
    }
  });

  test("every path param is declared, and fills a field of the operation's input", () => {
    for (const r of restRoutes) {
      const inPath = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      expect({ route: r.operationId, params: Object.keys(r.params ?? {}) }).toEqual({
        route: r.operationId,
        params: inPath,
      });
      const fields = Object.keys(r.op.input.properties ?? {});
      for (const field of Object.values(pathFieldsOf(r))) expect(fields).toContain(field);
    }
  });
});
