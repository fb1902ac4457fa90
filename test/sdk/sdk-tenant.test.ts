import { beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { testStack } from "../harness";
import { newTenant } from "../api";
import { buildClient, PACKAGE_DIR } from "./sdk-build";
import type * as Sdk from "../../clients/typescript/src/index.ts";

let sdk: typeof Sdk;
beforeAll(async () => {
  await buildClient();
  sdk = await import(resolve(PACKAGE_DIR, "dist/index.js"));
}, 120_000);

test("the client reads and changes the tenant's settings, and a memory shows its life", async () => {
  const stack = await testStack();
  const { key } = await newTenant(stack.baseUrl, stack.adminKey);
  const client = sdk.createClient({ baseUrl: stack.baseUrl, apiKey: key });
  expect((await client.tenant.get()).retention.short).toBeNull();
  const changed = await client.tenant.update({ retention: { short: 7 } });
  expect(changed.retention).toEqual({ short: 7, medium: null, long: null, cascade: false });
  const m = await client.memories.create({ content: "brief", tier: "short", occurred_at: "2020-02-02T00:00:00Z" });
  expect(Date.parse(m.expires_at!) - Date.parse(m.created_at)).toBe(7 * 86_400_000);
  expect(m.occurred_at).toBe("2020-02-02T00:00:00.000Z");
  const err = await client.tenant.update({ retention: { short: 0 } }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(sdk.MemoryServiceError);
  expect((err as Sdk.MemoryServiceError).details).toEqual({ field: "retention.short", constraint: "minimum", min: 1 });
});

test("the client mints a browser token, and the token works as the client's credential", async () => {
  const stack = await testStack();
  const { key } = await newTenant(stack.baseUrl, stack.adminKey);
  const backend = sdk.createClient({ baseUrl: stack.baseUrl, apiKey: key });
  await backend.memories.create({ content: "theirs", metadata: { user_id: "u_2" } });
  const minted = await backend.tokens.create({ restrict: { metadata: { user_id: "u_1" } }, ttl_seconds: 120 });
  expect(minted.token.startsWith("svc_tok_")).toBe(true);
  const browser = sdk.createClient({ baseUrl: stack.baseUrl, apiKey: minted.token });
  expect((await browser.memories.list()).total).toBe(0);
});
