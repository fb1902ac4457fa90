import fc from "fast-check";
import { newTenant } from "../api";
import { deepJson, nastyJson, nastyString } from "./arbitraries";
import { checkMetadata } from "../../services/contract/metadata";
import { unpairedSurrogateAt } from "../../gateway/http/body/body";

/**
 * NDJSON bodies for `POST /v1/import`: export-shaped records from small pools of ids, names and external ids (so
 * lines collide, name parents of other lines and repeat across bodies), some with one field broken or metadata the
 * API refuses, among blank lines, cursor and end lines, text that is not JSON, bytes that are not UTF-8, lines
 * nested too deep and lines past the line limit.
 */

/** Ids of the pool: the first LOCAL_IDS are each body's own (localIds), the rest are shared by every body. */
const ids = Array.from({ length: 12 }, (_, i) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`);
const LOCAL_IDS = 8;
const tagNames = ["red", "blue", "Green", "ünïcode"];
const entities = [
  { type: "person", name: "Ann" },
  { type: "organization", name: "Acme" },
];
const PAST = "2024-05-01T10:00:00.000Z";
const time = fc.oneof(
  { weight: 8, arbitrary: fc.constant(PAST) },
  { weight: 2, arbitrary: fc.constantFrom("2023-01-01T00:00:00Z", "2099-01-01T00:00:00.000Z") },
  fc.constantFrom("not a date", "2024-02-30T00:00:00Z"),
);
const nullable = <T>(a: fc.Arbitrary<T>) => fc.oneof(fc.constant(null), a);

const tag = fc.record({
  type: fc.constant("tag"),
  id: fc.constantFrom(...ids),
  name: fc.constantFrom(...tagNames),
  color: nullable(fc.constantFrom("#ff0000", "#00FF00", "red")),
  description: nullable(fc.string({ maxLength: 20 })),
  created_at: time,
});
const entity = fc.record({
  type: fc.constant("entity"),
  id: fc.constantFrom(...ids),
  name: fc.constantFrom("Ann", "Acme", "Bob"),
  entity_type: fc.constantFrom("person", "organization", "planet"),
  description: nullable(fc.string({ maxLength: 20 })),
  metadata: fc.constant({}),
  created_at: time,
});
const memory = fc.record({
  type: fc.constant("memory"),
  id: fc.constantFrom(...ids),
  content: fc.oneof(fc.string({ minLength: 1, maxLength: 60 }), fc.constantFrom("a turn", "a fact")),
  content_type: fc.constantFrom("text", "text", "conversation", "markdown"),
  tier: fc.constantFrom("short", "medium", "long", "long", "core"),
  memory_nature: fc.constantFrom("episodic", "semantic"),
  parent_memory_id: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, fc.constantFrom(...ids)),
  external_id: nullable(fc.constantFrom("ext-1", "ext-2", "ext-3")),
  metadata: fc.oneof(fc.constant({}), fc.constant({ source: "fuzz" })),
  tags: fc.subarray([...tagNames, "absent-tag"], { maxLength: 3 }),
  entities: fc.subarray([...entities, { type: "person", name: "Nobody" }], { maxLength: 2 }),
  created_at: time,
  updated_at: time,
  occurred_at: time,
  expires_at: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, fc.constantFrom("2099-01-01T00:00:00Z", PAST)),
  supersedes: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, fc.constantFrom(...ids)),
  superseded_by: fc.constant(null),
  valid_to: fc.constant(null),
});

/** A record with one field dropped, replaced by something hostile, or one field too many. */
const broken = (record: fc.Arbitrary<Record<string, unknown>>) =>
  fc
    .tuple(record, fc.nat(), fc.oneof(nastyJson, nastyString), fc.constantFrom("drop", "replace", "add"))
    .map(([r, n, value, how]) => {
      const out: Record<string, unknown> = { ...r };
      const field = Object.keys(out)[n % Object.keys(out).length]!;
      if (how === "drop") delete out[field];
      else if (how === "replace") out[field] = value;
      else out.unexpected = value;
      return out;
    });

/** Metadata `POST /v1/memories` refuses, as JSON text: too deep, too large, a prototype key, a lone surrogate. */
const refusedMetadata = fc.oneof(
  fc.nat({ max: 3 }).map((n) => `${'{"a":'.repeat(6 + n)}1${"}".repeat(6 + n)}`),
  deepJson.map((deep) => `{"a":${deep}}`),
  fc.constant(`{"big":"${"x".repeat(20_000)}"}`),
  fc.constantFrom('{"__proto__":{"admin":true}}', '{"a":[{"constructor":1}]}', '{"\\ud800":1}', '{"a":"\\udfff"}'),
);
/** A memory or entity line carrying such metadata. */
const withRefusedMetadata = fc
  .tuple(fc.oneof(memory, entity) as fc.Arbitrary<Record<string, unknown>>, refusedMetadata)
  .map(([r, md]) => JSON.stringify({ ...r, metadata: {} }).replace('"metadata":{}', `"metadata":${md}`));

const record = fc.oneof(tag, entity, memory, memory, memory) as fc.Arbitrary<Record<string, unknown>>;
const encoder = new TextEncoder();
const bytesOf = (s: string) => encoder.encode(s.replaceAll("\n", " "));

/** One line of a body, as bytes without its newline. */
const line: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 12, arbitrary: record.map((r) => bytesOf(JSON.stringify(r))) },
  { weight: 4, arbitrary: broken(record).map((r) => bytesOf(JSON.stringify(r) ?? "null")) },
  fc.constantFrom("", "   ", "\r", '{"type":"cursor","cursor":"x"}', '{"type":"end","counts":{}}').map(bytesOf),
  { weight: 2, arbitrary: withRefusedMetadata.map(bytesOf) },
  deepJson.map(bytesOf),
  nastyString.map(bytesOf),
  fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => b.filter((x) => x !== 10)),
  fc
    .constantFrom(1024 * 1024 + 1, 2 * 1024 * 1024)
    .map((n) => bytesOf(`{"type":"memory","content":"${"x".repeat(n)}"}`)),
);

export const importBody = fc.array(line, { minLength: 1, maxLength: 30 });

/** The body's lines joined by newlines, with or without a final one. */
export function joinLines(lines: Uint8Array[], finalNewline: boolean): Uint8Array {
  const parts = lines.flatMap((l, i) => (i < lines.length - 1 || finalNewline ? [l, Uint8Array.of(10)] : [l]));
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * The lines with the pool's local ids made body `n`'s own, so each body meets free ids as well as ones earlier
 * bodies hold. Latin-1 maps every byte to one character and back, so bytes that are not UTF-8 stay as they are.
 */
export function localIds(lines: Uint8Array[], n: number): Uint8Array[] {
  const prefix = (n + 1).toString(16).padStart(8, "0");
  return lines.map((bytes) => {
    let text = Buffer.from(bytes).toString("latin1");
    for (const id of ids.slice(0, LOCAL_IDS)) text = text.replaceAll(id, prefix + id.slice(8));
    return new Uint8Array(Buffer.from(text, "latin1"));
  });
}

/** The lines an import reads (non-blank) and the cursor and end lines among them, which it passes over. */
export function expectedLines(lines: Uint8Array[]): { read: number; passedOver: number } {
  // A line that is not UTF-8 is refused (not blank, not passed over), as a body that is not is.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let read = 0;
  let passedOver = 0;
  for (const bytes of lines) {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      read++;
      continue;
    }
    if (text.trim() === "" && bytes.length <= 1024 * 1024) continue;
    read++;
    try {
      const type = JSON.parse(text)?.type;
      if (bytes.length <= 1024 * 1024 && (type === "cursor" || type === "end")) passedOver++;
    } catch {}
  }
  return { read, passedOver };
}

/**
 * What no import may store, as the API would not: metadata past its limits, a string or key that is not Unicode
 * text. Reads the tenant's export; one line for each record that breaks a rule.
 */
async function storedAgainstTheRules(baseUrl: string, key: string): Promise<string[]> {
  const res = await fetch(`${baseUrl}/v1/export`, { headers: { authorization: `Bearer ${key}` } });
  const out: string[] = [];
  for (const text of (await res.text()).split("\n")) {
    if (text === "") continue;
    const r = JSON.parse(text);
    if (r.type === "error") out.push(`the export failed: ${text.slice(0, 300)}`);
    const unpaired = unpairedSurrogateAt(r);
    if (unpaired !== null) out.push(`${r.type} ${r.id}: a lone surrogate at ${unpaired}`);
    try {
      if (r.type === "memory" || r.type === "entity") checkMetadata(r.metadata);
    } catch (err) {
      out.push(`${r.type} ${r.id}: stored metadata the API refuses (${(err as Error).message})`);
    }
  }
  return out;
}

type Counts = { tags: number; entities: number; memories: number };
interface Report {
  lines: number;
  created: Counts;
  existing: Counts;
  failed: number;
  errors: { line: number; code: string; message: string }[];
}

const sum = (c: Counts) => c.tags + c.entities + c.memories;

/**
 * Imports `count` generated bodies (fixed by `seed`) into one fresh tenant, each twice, and checks every answer:
 * a 200 report; each line read counted once as created, existing, failed or passed over; errors by line within
 * the body; what the tenant holds grows by exactly what was created; the second import finds existing all the
 * first created or found, and creates at most what failed the first time (a child whose parent came later).
 */
export async function runImportFuzz(opts: { baseUrl: string; adminKey: string; count: number; seed: number }) {
  const { key } = await newTenant(opts.baseUrl, opts.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
  const bodies = fc.sample(fc.tuple(importBody, fc.boolean()), { numRuns: opts.count, seed: opts.seed });
  const failures: string[] = [];
  const totals = { created: 0, existing: 0, failed: 0 };
  const held = async (): Promise<Counts> => {
    const total = async (path: string) => {
      const res = await fetch(`${opts.baseUrl}${path}?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      return Number(((await res.json()) as any).meta.total);
    };
    const [tags, entities, memories] = await Promise.all(["/v1/tags", "/v1/entities", "/v1/memories"].map(total));
    return { tags: tags!, entities: entities!, memories: memories! };
  };
  const send = async (body: Uint8Array) => {
    const res = await fetch(`${opts.baseUrl}/v1/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
      body: body as BodyInit,
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    return { status: res.status, text, report: res.status === 200 ? (JSON.parse(text).data as Report) : null };
  };

  for (const [n, [generated, finalNewline]] of bodies.entries()) {
    const lines = localIds(generated, n);
    const body = joinLines(lines, finalNewline);
    const { read, passedOver } = expectedLines(lines);
    const label = `body ${n} (${lines.length} lines: ${Buffer.from(body).toString("utf8").slice(0, 300)})`;
    const reports: Report[] = [];
    for (const pass of ["first", "second"]) {
      const before = await held();
      const answer = await send(body);
      const after = await held();
      const r = answer.report;
      if (!r) {
        failures.push(`${label}, ${pass}: ${answer.status} ${answer.text.slice(0, 300)}`);
        break;
      }
      reports.push(r);
      const broken: string[] = [];
      if (r.lines !== read) broken.push(`lines ${r.lines}, expected ${read}`);
      if (sum(r.created) + sum(r.existing) + r.failed + passedOver !== r.lines)
        broken.push(`created + existing + failed + passed over ≠ lines: ${JSON.stringify(r)}`);
      if (r.errors.length < Math.min(r.failed, 1000)) broken.push(`${r.failed} failed, ${r.errors.length} errors`);
      if (r.errors.some((e) => !(e.line >= 1 && e.line <= lines.length) || !e.code || !e.message))
        broken.push(`an error off the body or without a code: ${JSON.stringify(r.errors)}`);
      // Each line is checked alone: no line, however hostile, fails as a fault of the service (or fails its chunk).
      const faults = r.errors.filter((e) => e.code === "INTERNAL_ERROR" || e.code === "TIMEOUT");
      if (faults.length) broken.push(`lines failed as faults: ${JSON.stringify(faults.slice(0, 3))}`);
      for (const kind of ["tags", "entities", "memories"] as const)
        if (after[kind] - before[kind] !== r.created[kind])
          broken.push(`${kind}: ${before[kind]} → ${after[kind]}, ${r.created[kind]} reported created`);
      if (broken.length) failures.push(`${label}, ${pass}: ${broken.join("; ")}`);
    }
    const [first, second] = reports;
    if (first && second) {
      if (sum(second.created) > first.failed)
        failures.push(`${label}: sent again, created ${JSON.stringify(second.created)} after ${first.failed} failed`);
      for (const kind of ["tags", "entities", "memories"] as const)
        if (second.existing[kind] < first.created[kind] + first.existing[kind])
          failures.push(`${label}: sent again, ${kind} ${JSON.stringify(first)} then ${JSON.stringify(second)}`);
      totals.created += sum(first.created);
      totals.existing += sum(second.existing);
      totals.failed += first.failed;
    }
  }
  failures.push(...(await storedAgainstTheRules(opts.baseUrl, key)));
  return { failures, totals };
}
