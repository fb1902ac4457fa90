import type { TSchema } from "@sinclair/typebox";

/** A JSON value of the document: plain data, no TypeBox symbols. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/**
 * A TypeBox schema as plain JSON Schema (2020-12, what OpenAPI 3.1 uses): TypeBox's symbols dropped, its string
 * enums (a union of literals) written as the `enum` every generator reads, and every schema given a `type`
 * (see `typed`).
 */
export const plainSchema = (schema: TSchema): JsonObject => JSON.parse(JSON.stringify(schema), normalize);

const isObject = (v: Json | undefined): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/** The reviver: runs on every object, innermost first. */
function normalize(_key: string, value: Json): Json {
  if (!isObject(value)) return value;
  return anyRecord(typed(asEnum(value)));
}

function asEnum(value: JsonObject): JsonObject {
  if (!Array.isArray(value.anyOf)) return value;
  const { anyOf, ...rest } = value;
  const literal = (v: Json) => isObject(v) && typeof v.const === "string" && Object.keys(v).length === 2;
  if (anyOf.length === 0 || !anyOf.every(literal)) return value;
  return { type: "string", enum: anyOf.map((v) => (v as JsonObject).const!), ...rest };
}

/** Keywords that combine or point to other schemas: a member holding one is never merged. */
const COMPOSING = ["$ref", "anyOf", "oneOf", "allOf", "not"];

/**
 * A union with a `type`. Scalar's reference page (the /docs page) only accepts a schema object that has a `type`
 * or that its loader has marked; it marks a schema on its way, but not one it first reaches through a `$ref`, so
 * every nullable field of a named schema would be refused. A union of schemas of distinct types (most often a type
 * and null) becomes one schema with a list of types, which means the same: each keyword applies to its own type
 * only (`maxLength` to strings, `properties` to objects), and an `enum` of a type and null gains null. A union of
 * schemas of one type keeps its members and gains their `type`.
 */
function typed(value: JsonObject): JsonObject {
  const { anyOf, ...rest } = value;
  if (rest.type !== undefined || !Array.isArray(anyOf) || anyOf.length < 2) return value;
  if (!anyOf.every((m) => isObject(m) && typeof m.type === "string" && COMPOSING.every((k) => !(k in m)))) return value;
  const members = anyOf as JsonObject[];
  const types = members.map((m) => m.type as string);
  if (new Set(types).size === 1) return { type: types[0]!, anyOf, ...rest };
  if (new Set(types).size < types.length) return value;
  const merged: JsonObject = {};
  for (const { type: _, ...keywords } of members)
    for (const [k, v] of Object.entries(keywords)) {
      if (k in merged && JSON.stringify(merged[k]) !== JSON.stringify(v)) return value;
      merged[k] = v;
    }
  // An enum (or const) restricts every type: only a type and null may merge, and null joins the values.
  const values = merged.enum ?? ("const" in merged ? [merged.const!] : undefined);
  if (values !== undefined) {
    if (types.length !== 2 || !types.includes("null") || !Array.isArray(values)) return value;
    delete merged.const;
    merged.enum = [...values, null];
  }
  return { ...merged, type: types, ...rest };
}

/** TypeBox's pattern for a Record keyed by any string. */
const ANY_KEY = "^(.*)$";

/**
 * A Record keyed by any string written as `additionalProperties` (what it means), so that a Record of anything is
 * `true` rather than `{}`, a schema without a `type`.
 */
function anyRecord(value: JsonObject): JsonObject {
  const patterns = value.patternProperties;
  if (value.type !== "object" || !isObject(patterns) || Object.keys(patterns).join() !== ANY_KEY) return value;
  if (value.additionalProperties !== undefined) return value;
  const { patternProperties: _, ...rest } = value;
  const each = patterns[ANY_KEY]!;
  return { ...rest, additionalProperties: isObject(each) && Object.keys(each).length === 0 ? true : each };
}

/**
 * The document's named schemas (`#/components/schemas/…`). A schema equal to a named one, wherever it
 * appears, becomes a `$ref` to it, so generated clients get one `Memory` type instead of a copy per operation.
 */
export class SchemaComponents {
  private readonly byJson = new Map<string, string>();
  readonly schemas: Record<string, JsonObject> = {};

  constructor(named: Record<string, TSchema>) {
    for (const [name, schema] of Object.entries(named)) this.byJson.set(JSON.stringify(plainSchema(schema)), name);
    for (const [name, schema] of Object.entries(named)) this.schemas[name] = this.inner(plainSchema(schema));
  }

  /** The schema with every named part (itself included) replaced by its `$ref`. */
  ref(schema: TSchema | JsonObject): JsonObject {
    return this.replace(plainSchema(schema as TSchema));
  }

  private replace(node: JsonObject): JsonObject {
    const name = this.byJson.get(JSON.stringify(node));
    return name ? { $ref: `#/components/schemas/${name}` } : this.inner(node);
  }

  /** The node itself kept, its subschemas replaced. */
  private inner(node: JsonObject): JsonObject {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) out[key] = this.walk(key, value);
    return out;
  }

  private walk(key: string, value: Json): Json {
    if (value === null || typeof value !== "object") return value;
    // Keywords whose value is a map of names to schemas; `const` and `default` hold data, not schemas.
    if (key === "const" || key === "default" || key === "enum" || key === "required") return value;
    if (Array.isArray(value)) return value.map((v) => this.walk("", v));
    if (key === "properties" || key === "patternProperties" || key === "$defs") {
      const out: JsonObject = {};
      for (const [k, v] of Object.entries(value)) out[k] = isObject(v) ? this.replace(v) : v;
      return out;
    }
    return this.replace(value);
  }
}

/** An object schema without the named properties (the fields a route's path fills). */
export function withoutProperties(schema: TSchema, names: string[]): JsonObject {
  const plain = plainSchema(schema);
  const properties = { ...(plain.properties as JsonObject) };
  for (const name of names) delete properties[name];
  const required = ((plain.required ?? []) as string[]).filter((r) => !names.includes(r));
  const { required: _, ...rest } = plain;
  return { ...rest, properties, ...(required.length ? { required } : {}) };
}
