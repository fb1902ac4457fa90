import { FormatRegistry, type TSchema, type Static, Kind } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import { validationError, ServiceError } from "./errors";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
// ISO 8601 date-time with an explicit zone, as Date.parse understands it.
const DATE_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID_RE.test(value);

// Formats are global in TypeBox; register ours once, whoever imports first.
if (!FormatRegistry.Has("uuid")) FormatRegistry.Set("uuid", (v) => UUID_RE.test(v));
if (!FormatRegistry.Has("date-time"))
  FormatRegistry.Set("date-time", (v) => DATE_TIME_RE.test(v) && !Number.isNaN(Date.parse(v)));
if (!FormatRegistry.Has("date")) FormatRegistry.Set("date", (v) => DATE_RE.test(v) && !Number.isNaN(Date.parse(v)));

/** A field the schema does not accept; adapters refuse fields they fill themselves the same way. */
export const unknownFieldError = (field: string): ServiceError =>
  validationError(field, "unknown_field", `${field} is not an accepted field`);

/** "/metadata/a/0" → "metadata.a.0"; the field clients see in `details.field`. */
const fieldOf = (path: string) => path.replace(/^\//, "").replace(/\//g, ".") || "body";

const describe = (schema: TSchema): string | undefined => {
  if (schema.anyOf && schema.anyOf.every((s: TSchema) => s.const !== undefined || s[Kind] === "Null")) {
    return schema.anyOf
      .filter((s: TSchema) => s.const !== undefined)
      .map((s: TSchema) => String(s.const))
      .join(", ");
  }
  return undefined;
};

const typeName = (schema: TSchema): string => {
  if (schema.anyOf) return schema.anyOf.map(typeName).join(" or ");
  return schema.type ?? (schema.const !== undefined ? JSON.stringify(schema.const) : "value");
};

/** Turns TypeBox's first error into the spec's `{field, constraint}` vocabulary. */
export function toValidationError(error: ValueError): ServiceError {
  const field = fieldOf(error.path);
  const s = error.schema;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return validationError(field, "required", `${field} is required`);
    case ValueErrorType.ObjectAdditionalProperties:
      return unknownFieldError(field);
    case ValueErrorType.StringMaxLength:
      return validationError(field, "max_length", `${field} must be at most ${s.maxLength} characters`, {
        max: s.maxLength,
      });
    case ValueErrorType.StringMinLength:
      return s.minLength === 1
        ? validationError(field, "required", `${field} must not be empty`)
        : validationError(field, "min_length", `${field} must be at least ${s.minLength} characters`, {
            min: s.minLength,
          });
    case ValueErrorType.StringFormat:
    case ValueErrorType.StringPattern:
      return validationError(
        field,
        "format",
        `${field} has an invalid format${s.format ? ` (expected ${s.format})` : ""}`,
      );
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMinimum:
      return validationError(field, "minimum", `${field} must be >= ${s.minimum ?? s.exclusiveMinimum}`, {
        min: s.minimum ?? s.exclusiveMinimum,
      });
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return validationError(field, "maximum", `${field} must be <= ${s.maximum}`, { max: s.maximum });
    case ValueErrorType.ArrayMinItems:
      return validationError(field, "min_items", `${field} must have at least ${s.minItems} item(s)`, {
        min: s.minItems,
      });
    case ValueErrorType.ArrayMaxItems:
      return validationError(field, "max_items", `${field} must have at most ${s.maxItems} items`, { max: s.maxItems });
    case ValueErrorType.ArrayUniqueItems:
      return validationError(field, "unique", `${field} must not repeat items`);
    case ValueErrorType.Integer:
      return validationError(field, "type", `${field} must be an integer`);
    case ValueErrorType.Union: {
      const allowed = describe(s);
      if (allowed !== undefined)
        return validationError(field, "enum", `${field} must be one of ${allowed}`, { allowed: allowed.split(", ") });
      // A nullable field: report what the non-null variant wanted.
      const variants = (s.anyOf as TSchema[]).filter((v) => v[Kind] !== "Null");
      if (variants.length === 1) {
        const inner = Value.Errors(variants[0], error.value).First();
        if (inner) return toValidationError({ ...inner, path: error.path + inner.path });
      }
      return validationError(field, "type", `${field} must be ${typeName(s)}`);
    }
    case ValueErrorType.Literal:
      return validationError(field, "enum", `${field} must be ${JSON.stringify(s.const)}`);
    default:
      return validationError(field, "type", `${field} must be ${typeName(s)}`);
  }
}

export interface Validator<T extends TSchema> {
  (value: unknown): Static<T>;
}

/**
 * Compiles a schema once; the returned function fills declared defaults, then returns the value
 * or throws a VALIDATION_ERROR ServiceError naming the field and the constraint.
 */
export function compileValidator<T extends TSchema>(schema: T): Validator<T> {
  const check = TypeCompiler.Compile(schema);
  const fillDefaults = defaultsFiller(schema);
  return (input: unknown) => {
    const value =
      fillDefaults && input !== null && typeof input === "object" && !Array.isArray(input)
        ? fillDefaults(input as Record<string, unknown>)
        : input;
    if (check.Check(value)) return value as Static<T>;
    const first = check.Errors(value).First();
    throw first ? toValidationError(first) : validationError("body", "type", "Invalid request");
  };
}

/**
 * Fills declared defaults in place, or null when the schema declares none. Value.Default walks (and
 * clones parts of) the whole schema on every call; when every default sits on a top-level property
 * with a primitive value (all of ours), a loop over those properties does the same for a fraction.
 */
function defaultsFiller(schema: TSchema): ((value: Record<string, unknown>) => unknown) | null {
  if (!JSON.stringify(schema).includes('"default"')) return null;
  const props = (schema.type === "object" ? (schema.properties ?? {}) : null) as Record<string, TSchema> | null;
  const top: [string, unknown][] = [];
  const simple =
    props !== null &&
    Object.entries(props).every(([key, prop]) => {
      const { default: value, ...rest } = prop;
      if (JSON.stringify(rest).includes('"default"')) return false;
      if (value === undefined) return true;
      top.push([key, value]);
      return value === null || typeof value !== "object";
    });
  if (!simple) return (value) => Value.Default(schema, value);
  return (value) => {
    for (const [key, def] of top) if (value[key] === undefined) value[key] = def;
    return value;
  };
}

/**
 * Query strings arrive as strings; convert them towards the schema ("10" → 10, "true" → true)
 * and wrap single values of array fields, before validating.
 */
export function coerceQuery(schema: TSchema, query: Record<string, unknown>): unknown {
  const props = (schema.properties ?? {}) as Record<string, TSchema>;
  // Keys are the client's: a map without a prototype keeps `__proto__` a key (refused as unknown).
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, raw] of Object.entries(query)) {
    const prop = Object.hasOwn(props, key) ? props[key] : undefined;
    if (prop?.type === "array" && !Array.isArray(raw)) out[key] = [raw];
    else out[key] = raw;
  }
  // A copy: Convert mutates its argument.
  const converted = Value.Convert(schema, { ...out }) as Record<string, unknown>;
  // Value.Convert truncates "1.5" to 1; an integer parameter must be written as one, else it stays a string (→ 400).
  for (const [key, raw] of Object.entries(out)) {
    const integer = Object.hasOwn(props, key) && props[key]!.type === "integer";
    if (integer && typeof raw === "string" && !/^[+-]?\d+$/.test(raw)) converted[key] = raw;
  }
  return converted;
}
