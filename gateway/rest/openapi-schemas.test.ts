import { describe, expect, test } from "bun:test";
import { Type as T } from "@sinclair/typebox";
import { type Json, type JsonObject, plainSchema } from "./openapi-schemas";
import { openApiDocument } from "./openapi";
import { restRoutes } from "./routes";

describe("plainSchema", () => {
  test("a nullable field is one schema with two types; its keywords stay", () => {
    expect(plainSchema(T.Union([T.String({ format: "uuid", description: "d" }), T.Null()]))).toEqual({
      type: ["string", "null"],
      format: "uuid",
      description: "d",
    });
    expect(plainSchema(T.Union([T.Integer({ minimum: 1 }), T.Null()], { description: "n" }))).toEqual({
      type: ["integer", "null"],
      minimum: 1,
      description: "n",
    });
  });

  test("a nullable enum gains null among its values", () => {
    expect(plainSchema(T.Union([T.Union([T.Literal("a"), T.Literal("b")]), T.Null()]))).toEqual({
      type: ["string", "null"],
      enum: ["a", "b", null],
    });
  });

  test("a union of distinct types merges; a union of one type keeps its members and gains the type", () => {
    expect(plainSchema(T.Union([T.String({ maxLength: 9 }), T.Number(), T.Boolean()]))).toEqual({
      type: ["string", "number", "boolean"],
      maxLength: 9,
    });
    const a = T.Object({ a: T.String() });
    const b = T.Object({ b: T.String() });
    expect(plainSchema(T.Union([a, b]))).toEqual({ type: "object", anyOf: [plainSchema(a), plainSchema(b)] });
  });

  test("unions it cannot merge without changing their meaning stay as they are", () => {
    // An enum of one type next to another type; two members restricting the same keyword differently.
    const enumAndNumber = T.Union([T.Union([T.Literal("a"), T.Literal("b")]), T.Number()]);
    expect(plainSchema(enumAndNumber).anyOf).toHaveLength(2);
    expect(plainSchema(T.Union([T.String({ description: "x" }), T.Integer({ description: "y" })])).anyOf).toHaveLength(
      2,
    );
  });

  test("a Record keyed by any string is additionalProperties; of anything, `true`", () => {
    expect(plainSchema(T.Record(T.String(), T.Unknown()))).toEqual({ type: "object", additionalProperties: true });
    expect(plainSchema(T.Record(T.String(), T.Integer()))).toEqual({
      type: "object",
      additionalProperties: { type: "integer" },
    });
  });
});

/** Each schema object of the document with its place, walked through every keyword that holds schemas. */
function* schemasOf(node: Json | undefined, at: string): Generator<[string, JsonObject]> {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return;
  yield [at, node];
  for (const k of ["properties", "patternProperties", "$defs"] as const) {
    const map = node[k];
    if (map && typeof map === "object" && !Array.isArray(map))
      for (const [name, s] of Object.entries(map)) yield* schemasOf(s, `${at}/${k}/${name}`);
  }
  for (const k of ["items", "not", "additionalProperties", "contentSchema"]) yield* schemasOf(node[k], `${at}/${k}`);
  for (const k of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
    const list = node[k];
    if (Array.isArray(list)) for (const [i, s] of list.entries()) yield* schemasOf(s, `${at}/${k}/${i}`);
  }
}

test("every schema of the document has a type or is a $ref (what Scalar's page requires)", () => {
  const doc = JSON.parse(JSON.stringify(openApiDocument(restRoutes)));
  const roots: [string, Json][] = Object.entries(doc.components.schemas).map(([n, s]) => [`schemas/${n}`, s as Json]);
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, JsonObject>>))
    for (const [method, op] of Object.entries(item)) {
      const where = `${method} ${path}`;
      for (const p of (op.parameters ?? []) as JsonObject[]) roots.push([`${where} ${p.name}`, p.schema!]);
      const body = (op.requestBody as JsonObject | undefined)?.content as Record<string, JsonObject> | undefined;
      for (const c of Object.values(body ?? {})) roots.push([`${where} body`, c.schema!]);
      for (const [status, r] of Object.entries(op.responses as Record<string, JsonObject>))
        for (const c of Object.values((r.content ?? {}) as Record<string, JsonObject>))
          roots.push([`${where} ${status}`, c.schema!]);
    }
  const untyped: string[] = [];
  for (const [at, root] of roots)
    for (const [place, s] of schemasOf(root, at)) if (s.type === undefined && s.$ref === undefined) untyped.push(place);
  expect(roots.length).toBeGreaterThan(100);
  expect(untyped).toEqual([]);
});
