import type { TSchema } from "@sinclair/typebox";

/** A JSON value of the document: plain data, no TypeBox symbols. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/**
 * A TypeBox schema as plain JSON Schema (2020-12, what OpenAPI 3.1 uses): TypeBox's symbols dropped, and
 * its string enums (a union of literals) written as the `enum` every generator reads.
 */
export const plainSchema = (schema: TSchema): JsonObject => JSON.parse(JSON.stringify(schema), asEnum);

function asEnum(_key: string, value: Json): Json {
  if (value === null || typeof value !== "object" || Array.isArray(value) || !Array.isArray(value.anyOf)) return value;
  const { anyOf, ...rest } = value;
  const literal = (v: Json) =>
    v !== null &&
    typeof v === "object" &&
    !Array.isArray(v) &&
    typeof v.const === "string" &&
    Object.keys(v).length === 2;
  if (anyOf.length === 0 || !anyOf.every(literal)) return value;
  return { type: "string", enum: anyOf.map((v) => (v as JsonObject).const!), ...rest };
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

const isObject = (v: Json): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/** An object schema without the named properties (the fields a route's path fills). */
export function withoutProperties(schema: TSchema, names: string[]): JsonObject {
  const plain = plainSchema(schema);
  const properties = { ...(plain.properties as JsonObject) };
  for (const name of names) delete properties[name];
  const required = ((plain.required ?? []) as string[]).filter((r) => !names.includes(r));
  const { required: _, ...rest } = plain;
  return { ...rest, properties, ...(required.length ? { required } : {}) };
}
