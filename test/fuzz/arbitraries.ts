import fc from "fast-check";

/** Strings a parser or a store trips on: odd encodings, lone surrogates, prototype names, huge or empty text. */
export const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "\uD800",
    "a\uDC00b",
    "\u0000",
    "%00",
    "%",
    "%E0%A4%A",
    "../../etc/passwd",
    "*",
    "null",
    "undefined",
    "NaN",
    "-1",
    "1e400",
    "99999999999999999999999",
    "0x10",
    "true",
    "\u202e",
    "😀".repeat(50),
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "{{7*7}}",
    "${jndi:ldap://x}",
    "\r\nX-Injected: 1",
  ),
  fc.nat({ max: 70_000 }).map((n) => "x".repeat(n)),
);

export const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, -1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, 2 ** 53, 0.5, 101, 100, 1),
);

/** Nested objects or arrays `depth` deep, as text (JSON.stringify itself would overflow on the deepest). */
export const deepJson = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 30, max: 40 }), fc.constantFrom(1_000, 10_000, 50_000)),
    arrays: fc.boolean(),
  })
  .map(({ depth, arrays }) =>
    arrays ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
  );

/** Any JSON value, with prototype keys and nasty leaves. */
export const nastyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    nastyString,
    nastyNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    tie("object"),
  ),
  object: fc.dictionary(fc.oneof(nastyString, fc.constantFrom("__proto__", "constructor", "prototype")), tie("value"), {
    maxKeys: 4,
  }),
})).value;

/** A body's fields: the schema's own names with nasty values, plus strangers. */
export function nastyBody(fieldNames: string[]): fc.Arbitrary<Record<string, unknown>> {
  const names = fieldNames.length ? fc.constantFrom(...fieldNames) : nastyString;
  return fc.dictionary(fc.oneof({ weight: 4, arbitrary: names }, { weight: 1, arbitrary: nastyString }), nastyJson, {
    maxKeys: 6,
  });
}

/** Bytes that are not JSON, or not UTF-8, or not what the content type says. */
export const rawBody = fc.oneof(
  deepJson.map((s) => new TextEncoder().encode(s)),
  fc.uint8Array({ maxLength: 64 }),
  fc.constantFrom(
    new Uint8Array([0x7b, 0x22, 0x63, 0x6f, 0x6e, 0x74, 0x65, 0x6e, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
    new TextEncoder().encode('{"content": "\\ud800"}'),
    new TextEncoder().encode('{"__proto__": {"admin": true}, "content": "x"}'),
    new TextEncoder().encode('{"content": 1e999}'),
    new TextEncoder().encode("{"),
    new TextEncoder().encode("[]"),
    new TextEncoder().encode("null"),
    new TextEncoder().encode('"text"'),
  ),
);

export const contentType = fc.constantFrom(
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/graphql-response+json",
  "",
);

export const accept = fc.constantFrom(
  undefined,
  "application/json",
  "application/graphql-response+json",
  "application/xml",
  "text/event-stream",
  "*/*",
  "text/html",
);

/** Path ids: a real one, well-formed strangers and garbage. */
export const pathId = (known: string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: known.length ? fc.constantFrom(...known) : fc.uuid() },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: nastyString.map((s) => s.slice(0, 200)) },
  );

/** Keys the fuzzer reuses, so that writes replay an answer or meet a key used with another request. */
export const IDEMPOTENCY_POOL = ["fuzz-key-1", "fuzz-key-2", "fuzz-key-3"];

/**
 * An Idempotency-Key header for a write: mostly none, else a new one, one of the pool, or a malformed one. Values
 * stay Latin-1 without line breaks, as fetch refuses to send anything else.
 */
export const idempotencyKey: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 10, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.uuid() },
  fc.constantFrom(...IDEMPOTENCY_POOL),
  fc.constantFrom("", "a b", "x".repeat(256), "x".repeat(255), "\u00ff\u00e9", "key\u007f", "__proto__"),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 300 }),
);
