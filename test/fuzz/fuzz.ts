import fc from "fast-check";
import { newTenant, type ApiClient } from "../api";
import { fuzzRequest, type FuzzRequest, type Known } from "./requests";
import type { FuzzSession } from "./web-requests";
import { aimedRequest, outsideWatch, type RestrictionKind, seedRestricted } from "./restricted";

export interface FuzzOptions {
  baseUrl: string;
  adminKey: string;
  count: number;
  seed: number;
  /**
   * Send as a browser token of user A restricted this way (test/fuzz/restricted.ts), and check after every request
   * that nothing of user B changed or showed.
   */
  restrict?: RestrictionKind;
  /** Called every `every` requests with the count so far. */
  progress?: (done: number) => void;
}

export interface FuzzReport {
  statuses: Record<string, number>;
  /**
   * One line per broken promise: a 5xx, an answer without the envelope or a request id, a hang, a stored refusal,
   * a replay unlike its first answer, a keyed success not replayed.
   */
  failures: string[];
  /** How many keyed writes sent again were answered by a replay. */
  replayed: number;
  ms: number;
}

const TIMEOUT_MS = 15_000;
const LISTS = ["/v1/memories?limit=1", "/v1/tags?limit=1", "/v1/entities?limit=1", "/v1/keys?limit=1"];

/**
 * Sends `count` generated requests (fixed by `seed`) to one fresh tenant, one at a time, and checks three promises of
 * every answer: no 5xx; the envelope (or a GraphQL response) with a request id; nothing stored by a refusal. A write
 * with an Idempotency-Key goes twice: the second answer replays the first byte for byte, or is refused alike.
 */
export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const { api, key } = await newTenant(opts.baseUrl, opts.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
  const restricted = opts.restrict ? await seedRestricted(opts.baseUrl, api, opts.restrict) : null;
  const known = restricted?.known ?? (await seedRecords(api));
  // A token signs in nowhere: its run's cookie requests carry a session that does not exist.
  const session = restricted ? NO_SESSION : await signIn(opts.baseUrl, key);
  const credential = restricted?.world.tokenA ?? key;
  const state = () => storedState(opts.baseUrl, key);
  const generated = restricted
    ? fc.oneof(
        { weight: 3, arbitrary: aimedRequest(restricted) },
        { weight: 2, arbitrary: fuzzRequest(known, session) },
      )
    : fuzzRequest(known, session);
  const requests = fc.sample(generated, { numRuns: opts.count, seed: opts.seed });
  const watch = restricted ? await outsideWatch(restricted) : null;
  /** With a token: B's data unchanged and unseen, and A's writes inside A, after `req` was answered `answer`. */
  const checkOutside = async (req: FuzzRequest, answer: Answer) => {
    if (!watch) return;
    for (const leak of watch.leaks(req, answer.text))
      failures.push(`${describe(req)} → ${answer.status}: the answer ${leak}: ${answer.text.slice(0, 300)}`);
    if (!req.write) return;
    for (const change of await watch.changes()) failures.push(`${describe(req)} → ${answer.status}: ${change}`);
  };
  const statuses: Record<string, number> = {};
  const failures: string[] = [];
  let fingerprint: string | null = null;
  let replayed = 0;

  for (const [i, req] of requests.entries()) {
    if (req.write && fingerprint === null) fingerprint = await state();
    const answer = await send(opts.baseUrl, credential, req);
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    const broken = brokenPromise(req, answer);
    if (broken) failures.push(`${describe(req)} → ${answer.status}: ${broken}`);
    if (answer.error) break; // a gateway that stopped answering fails every later request too
    await checkOutside(req, answer);
    if (req.write) {
      if (refused(req, answer)) {
        const after = await state();
        if (after !== fingerprint)
          failures.push(`${describe(req)} → ${answer.status} was refused but stored: ${fingerprint} → ${after}`);
        fingerprint = after;
      } else fingerprint = null;
    }
    if (req.write && req.headers["idempotency-key"] !== undefined) {
      // The same request with the same key again: the first answer replayed, or refused alike.
      const again = await send(opts.baseUrl, credential, req);
      const retry = brokenPromise(req, again) ?? brokenReplay(req, answer, again);
      if (retry) failures.push(`${describe(req)} → ${answer.status}, again → ${again.status}: ${retry}`);
      if (again.error) break;
      await checkOutside(req, again);
      if (again.headers.get("idempotent-replayed") === "true") replayed++;
      if (!refused(req, again)) fingerprint = null;
    }
    if (opts.progress && (i + 1) % 500 === 0) opts.progress(i + 1);
  }
  // What a request not counted as a write changed after the last write.
  for (const change of (await watch?.changes()) ?? []) failures.push(`after the run: ${change}`);
  return { statuses, failures, replayed, ms: Math.round(performance.now() - started) };
}

const NO_SESSION: FuzzSession = { cookie: `dashboard_session=${"A".repeat(43)}`, csrf: "none" };

async function seedRecords(api: ApiClient): Promise<Known> {
  const known: Known = { memories: [], tags: [], entities: [], keys: [] };
  for (const content of ["fuzz parent", "fuzz child", "fuzz third"]) {
    const parent = known.memories[0];
    const res = await api.post("/v1/memories", { content, ...(parent ? { parent_memory_id: parent } : {}) });
    known.memories.push(res.body.data.id);
  }
  for (const name of ["fuzz-a", "fuzz-b"]) known.tags.push((await api.post("/v1/tags", { name })).body.data.id);
  known.entities.push((await api.post("/v1/entities", { name: "Fuzz Co", type: "organization" })).body?.data?.id);
  known.entities = known.entities.filter(Boolean);
  const minted = await api.post("/v1/keys", { name: "fuzz-minted", scopes: ["memories:read"] });
  if (minted.body?.data?.id) known.keys.push(minted.body.data.id);
  return known;
}

/** A dashboard session of the tenant's key, for the requests that carry its cookie. */
async function signIn(baseUrl: string, key: string): Promise<FuzzSession> {
  const res = await fetch(`${baseUrl}/dashboard/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key }),
  });
  if (res.status !== 200) throw new Error(`could not sign in: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
  return { cookie, csrf: ((await res.json()) as any).data.csrf_token };
}

/** The tenant's record counts: a refused write must leave them as they were. */
async function storedState(baseUrl: string, key: string): Promise<string> {
  const total = async (path: string) => {
    const headers = { authorization: `Bearer ${key}` };
    const res = await fetch(baseUrl + path, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(() => null);
    return ((await res?.json().catch(() => null)) as any)?.meta?.total ?? "?";
  };
  return (await Promise.all(LISTS.map(total))).join("/");
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  stream: boolean;
  error?: string;
}

async function send(baseUrl: string, key: string, req: FuzzRequest): Promise<Answer> {
  try {
    const res = await fetch(baseUrl + req.path, {
      method: req.method,
      headers: { ...(req.anonymous ? {} : { authorization: `Bearer ${key}` }), ...req.headers },
      body: req.body as BodyInit | undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    // A subscription answers a stream that stays open: its head is the answer.
    if (res.headers.get("content-type")?.startsWith("text/event-stream")) {
      await res.body?.cancel();
      return { status: res.status, headers: res.headers, text: "", stream: true };
    }
    return { status: res.status, headers: res.headers, text: await res.text(), stream: false };
  } catch (e) {
    return { status: 0, headers: new Headers(), text: "", stream: false, error: (e as Error).message };
  }
}

function brokenPromise(req: FuzzRequest, a: Answer): string | null {
  if (a.error) return `no answer within ${TIMEOUT_MS} ms (${a.error})`;
  if (a.status >= 500) return `server error: ${a.text.slice(0, 300)}`;
  const headerId = a.headers.get("x-request-id");
  if (req.method === "HEAD" || a.stream) return headerId ? null : "no X-Request-Id";
  // A browser asking for /graphql gets the GraphiQL page; the browser routes answer pages and their assets.
  const type = a.headers.get("content-type") ?? "";
  const browserPath = /^\/(graphql|docs|dashboard)\b/.test(req.path);
  if (req.method === "GET" && browserPath && /^text\/(html|javascript|css)/.test(type)) return null;
  // The OpenAPI document is the one JSON answer that is no envelope.
  if (req.method === "GET" && req.path === "/docs/json" && a.status === 200 && a.text.startsWith('{"openapi":'))
    return null;
  if (req.path === "/mcp" && a.status === 202 && a.text === "") return headerId ? null : "no X-Request-Id";
  if (a.status === 200 && type.startsWith("application/x-ndjson")) return brokenExport(a.text);
  let body: any;
  try {
    body = JSON.parse(a.text);
  } catch {
    return `not JSON: ${JSON.stringify(a.text.slice(0, 120))}`;
  }
  const bodyId = body?.meta?.request_id ?? body?.extensions?.request_id;
  if (!headerId && typeof bodyId !== "string") return "no request id";
  const envelope =
    typeof body?.meta?.request_id === "string" && (body.data !== undefined || typeof body.error?.code === "string");
  const graphqlResponse = req.path.startsWith("/graphql") && (body?.data !== undefined || Array.isArray(body?.errors));
  if (req.path === "/mcp" && isJsonRpc(body)) return headerId ? null : "no X-Request-Id";
  if (!envelope && !graphqlResponse) return `neither the envelope nor a GraphQL response: ${a.text.slice(0, 200)}`;
  if (a.status >= 400 && !graphqlResponse && typeof body.error?.message !== "string")
    return "an error without a message";
  return null;
}

/** An export's answer: JSON lines, the last an `end` line, or an `error` line once the stream had begun. */
function brokenExport(text: string): string | null {
  const lines = text.split("\n").filter((l) => l !== "");
  try {
    const last = JSON.parse(lines.at(-1) ?? "null")?.type;
    lines.forEach((l) => JSON.parse(l));
    return last === "end" || last === "error" ? null : `an export that ends with ${JSON.stringify(lines.at(-1))}`;
  } catch {
    return `an export line that is not JSON: ${text.slice(0, 200)}`;
  }
}

/**
 * A keyed write sent twice: a replay is the first answer byte for byte, and a write that succeeded is replayed.
 */
function brokenReplay(req: FuzzRequest, first: Answer, again: Answer): string | null {
  const replayed = again.headers.get("idempotent-replayed") === "true";
  if (replayed && (again.status !== first.status || again.text !== first.text))
    return `a replay that differs from the first answer: ${again.text.slice(0, 200)}`;
  if (!replayed && req.keyed && !refused(req, first)) return `a success not replayed: ${again.text.slice(0, 200)}`;
  return null;
}

/** A JSON-RPC answer of the MCP endpoint: a result or an error. */
const isJsonRpc = (body: any) =>
  body?.jsonrpc === "2.0" && (body.result !== undefined || typeof body.error?.code === "number");

/**
 * A write the server turned down: an error status, a GraphQL answer with errors and no data, or an MCP
 * JSON-RPC error or tool error.
 */
function refused(req: FuzzRequest, a: Answer): boolean {
  if (a.status === 0 || a.status >= 400) return true;
  if (req.path === "/mcp") {
    try {
      const body = JSON.parse(a.text);
      return body?.error !== undefined || body?.result?.isError === true;
    } catch {
      return a.status !== 202;
    }
  }
  if (!req.path.startsWith("/graphql")) return false;
  try {
    const body = JSON.parse(a.text);
    const data = body?.data ? Object.values(body.data).filter((v) => v !== null) : [];
    return Array.isArray(body?.errors) && data.length === 0;
  } catch {
    return false;
  }
}

function describe(req: FuzzRequest): string {
  const body =
    req.body === undefined
      ? ""
      : typeof req.body === "string"
        ? req.body
        : `bytes ${Buffer.from(req.body).toString("hex")}`;
  return `${req.method} ${req.path.slice(0, 200)} ${JSON.stringify(req.headers)} ${body.slice(0, 300)}`;
}
