import { Type as T, type TSchema, type Static, type TUnion, type TLiteral } from "@sinclair/typebox";

export const Uuid = (opts: { description?: string } = {}) => T.String({ format: "uuid", ...opts });
export const DateTime = (opts: { description?: string } = {}) => T.String({ format: "date-time", ...opts });
type Literals<V extends readonly string[]> = { -readonly [K in keyof V]: TLiteral<V[K]> };
export const Enum = <const V extends readonly string[]>(
  values: V,
  opts: { description?: string; default?: V[number] } = {},
) =>
  T.Union(
    values.map((v) => T.Literal(v)),
    opts,
  ) as unknown as TUnion<Literals<V>>;
export const Nullable = <S extends TSchema>(schema: S) => T.Union([schema, T.Null()]);

export const ENVIRONMENTS = ["live", "test"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const ORDERS = ["asc", "desc"] as const;

/** Pagination input shared by every list operation: limit 1–100, offset >= 0. */
export const pageInput = (defaultLimit = 50) => ({
  limit: T.Optional(T.Integer({ minimum: 1, maximum: 100, default: defaultLimit })),
  offset: T.Optional(T.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});

/** Every list operation answers a page; the gateway maps it to `data` + `meta.total/limit/offset/has_more`. */
export const Page = <S extends TSchema>(item: S) =>
  T.Object({ items: T.Array(item), total: T.Integer(), limit: T.Integer(), offset: T.Integer() });
export type PageOf<X> = { items: X[]; total: number; limit: number; offset: number };

export const Deleted = T.Object({ id: Uuid(), deleted: T.Literal(true) });
export type Static_<S extends TSchema> = Static<S>;
