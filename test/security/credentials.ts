import { beforeAll, expect, test } from "bun:test";
import { apiClient, newTenant } from "../api";
import { testStack } from "../harness";
import type { Scope } from "../../services/contract/op";
import { brief, Failures, sameAnswer, usedFields } from "./compare";
import { unknownIds, type Ids } from "./ids";
import { allCases, mcpToolNames, type Case, type Surface } from "./operations";
import { counts } from "./summary";

/**
 * Credentials against every operation of every surface: no credential is 401; a key without the operation's scope
 * is 403 naming it; a token is 403 for what a token can never hold (admin, tokens:create); another tenant's ids,
 * and live ids sent with a test key, answer exactly as ids that name nothing (a path id: 404).
 */
const TOKEN_NEVER: Scope[] = ["admin", "tokens:create"];
const PUBLIC_SCOPES: Scope[] = ["memories:read", "memories:write", "search:read", "admin", "tokens:create"];
/** Codes that say a table's request itself is wrong, so the case would prove nothing. */
const MALFORMED = /^(VALIDATION_ERROR|GRAPHQL_\w+|BAD_REQUEST|JSONRPC_.*)$/;
const T1_SECRET = "SECRET-of-tenant-one";

interface World {
  cases: Case[];
  /** Tenant 1's things, named by tenant 2 and by tenant 1's test key. */
  t1: Required<Ids>;
  t2Key: string;
  t1TestKey: string;
  lacking: Record<string, string>;
  token: string;
}

let w: World;

export function credentialTests() {
  beforeAll(async () => {
    const { baseUrl, adminKey } = await testStack();
    const t1 = await newTenant(baseUrl, adminKey);
    const ok = async (p: Promise<{ status: number; body: any }>) => {
      const r = await p;
      if (r.status !== 200) throw new Error(`seeding failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.data;
    };
    const m1 = await ok(t1.api.post("/v1/memories", { content: `${T1_SECRET} root`, external_id: "ext-t1" }));
    const m2 = await ok(t1.api.post("/v1/memories", { content: `${T1_SECRET} child`, parent_memory_id: m1.id }));
    const tag = await ok(t1.api.post("/v1/tags", { name: "t1-tag" }));
    await ok(t1.api.post(`/v1/memories/${m1.id}/tags`, { tag_ids: [tag.id] }));
    const entity = await ok(t1.api.post("/v1/entities", { name: "T1 Co", type: "organization", memory_ids: [m1.id] }));
    const hook = await ok(t1.api.post("/v1/webhooks", { url: "http://127.0.0.1:9/t1", events: ["*"] }));
    const delivery = await ok(t1.api.post(`/v1/webhooks/${hook.webhook?.id ?? hook.id}/test`));
    const target = await ok(t1.api.post("/v1/keys", { name: "target", scopes: ["memories:read"] }));
    const t2 = await newTenant(baseUrl, adminKey);
    const lacking: Record<string, string> = {};
    for (const scope of PUBLIC_SCOPES) {
      const scopes = PUBLIC_SCOPES.filter((s) => s !== scope);
      lacking[scope] = (await ok(t2.api.post("/v1/keys", { name: `no ${scope}`, scopes }))).key;
    }
    const token = await ok(
      t2.api.post("/v1/tokens", { scopes: ["memories:read", "memories:write", "search:read"], ttl_seconds: 3600 }),
    );
    const test1 = await newTenant(baseUrl, adminKey, { tenant: t1.tenant, environment: "test" });
    w = {
      cases: await allCases(baseUrl, t2.key),
      t1: {
        memory: m1.id,
        other: m2.id,
        tag: tag.id,
        tagName: "t1-tag",
        entity: entity.id,
        external: "ext-t1",
        webhook: hook.webhook?.id ?? hook.id,
        delivery: delivery.id,
        key: target.id,
        tenant: t1.tenant,
      },
      t2Key: t2.key,
      t1TestKey: test1.key,
      lacking,
      token: token.token,
    };
  }, 60_000);

  const each = async (surface: Surface, credential: string, check: (c: Case, f: Failures) => Promise<void>) => {
    const failures = new Failures();
    const cases = w.cases.filter((c) => c.surface === surface);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) await check(c, failures);
    counts.add(surface, credential, cases.length);
    if (failures.lines.length) console.log(failures.message());
    expect(failures.lines).toEqual([]);
  };

  for (const surface of ["rest", "graphql", "mcp", "stream"] as const) {
    test(`${surface}: no credential is 401 on every operation`, () =>
      each(surface, "none", async (c, f) => {
        const o = await c.send(undefined, c.build(unknownIds()));
        if (o.status !== 401) f.add(c, "none", `expected 401, got ${brief(o)}`);
      }));

    test(`${surface}: a key without the operation's scope is 403 naming it`, () =>
      each(surface, "key lacking the scope", async (c, f) => {
        const o = await c.send(w.lacking[c.scope], c.build(unknownIds()));
        if (c.emptyWithoutScope) {
          if (o.code !== "EMPTY") f.add(c, `lacking ${c.scope}`, `expected an empty answer, got ${brief(o)}`);
          return;
        }
        const forbidden = o.code === "FORBIDDEN" && (surface === "graphql" || surface === "mcp" || o.status === 403);
        if (!forbidden || !o.message.includes(c.scope)) f.add(c, `lacking ${c.scope}`, `got ${brief(o)}`);
        if (surface === "mcp") {
          const { baseUrl } = await testStack();
          const listed = await mcpToolNames(baseUrl, w.lacking[c.scope]!);
          if (c.name.startsWith("tool ") && listed.includes(c.name.slice("tool ".length)))
            f.add(c, `lacking ${c.scope}`, "tools/list offers it");
        }
      }));

    test(`${surface}: a token is 403 on admin and tokens:create operations`, () =>
      each(surface, "token", async (c, f) => {
        if (!TOKEN_NEVER.includes(c.scope)) return;
        const o = await c.send(w.token, c.build(unknownIds()));
        if (o.code !== "FORBIDDEN" || !o.message.includes(c.scope)) f.add(c, "token", `got ${brief(o)}`);
      }));

    test(`${surface}: another tenant's ids answer as unknown ids`, () =>
      each(surface, "other tenant's key", (c, f) => foreign(c, f, w.t2Key, "other tenant")));

    test(`${surface}: live ids sent with a test key answer as unknown ids`, () =>
      each(surface, "test key", (c, f) => foreign(c, f, w.t1TestKey, "test key", ["tenant"])));
  }
}

/** Sends the case with tenant 1's ids, then with unknown ones: the same answer, and nothing of tenant 1 in it. */
async function foreign(c: Case, f: Failures, credential: string, label: string, same: (keyof Ids)[] = []) {
  const unknown = unknownIds();
  // A test key shares its tenant's name with the live data: naming it names no live data.
  const used = usedFields(c, unknown).filter((field) => !same.includes(field));
  if (used.length === 0) return;
  const ids = { ...unknown };
  for (const field of used) (ids as Record<string, string>)[field] = w.t1[field];
  const theirs = await c.send(credential, c.build(ids));
  const none = await c.send(credential, c.build(unknown));
  if (MALFORMED.test(none.code) && !none.details.includes('"constraint":"exists"'))
    f.add(c, label, `the table's request is malformed: ${brief(none)}`);
  const differs = sameAnswer(theirs, ids, none, unknown);
  if (differs) f.add(c, label, differs);
  if (c.pathIds && theirs.status !== 404) f.add(c, label, `a foreign path id must be 404: ${brief(theirs)}`);
  if (theirs.text.includes(T1_SECRET)) f.add(c, label, `shows tenant 1's content: ${brief(theirs)}`);
}

export { apiClient };
