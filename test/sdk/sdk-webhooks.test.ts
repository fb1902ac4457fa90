import { beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { testStack } from "../harness";
import { newTenant } from "../api";
import { eventually, receiver, verify } from "../webhooks/webhook-helpers";
import { buildClient, PACKAGE_DIR } from "./sdk-build";
import type * as Sdk from "../../clients/typescript/src/index.ts";

/** The built client's webhooks methods against the running service and a receiver on loopback. */
let sdk: typeof Sdk;
let client: Sdk.MemoryServiceClient;

beforeAll(async () => {
  await buildClient();
  sdk = await import(resolve(PACKAGE_DIR, "dist/index.js"));
  const stack = await testStack();
  const t = await newTenant(stack.baseUrl, stack.adminKey);
  client = sdk.createClient({ baseUrl: stack.baseUrl, apiKey: t.key });
}, 120_000);

test("webhooks: register, ping, follow the delivery, retry it, rotate, change and delete", async () => {
  const r = receiver();
  const hook = await client.webhooks.create({ url: r.url("/sdk"), events: ["memory.created"], description: "sdk" });
  expect(hook.secret).toStartWith("whsec_");
  const ids: string[] = [];
  for await (const w of client.webhooks.iterate()) ids.push(w.id);
  expect(ids).toEqual([hook.id]);
  expect((await client.webhooks.get(hook.id)).description).toBe("sdk");
  const ping: Sdk.WebhookDelivery = await client.webhooks.test(hook.id);
  const page = await eventually(async () => {
    const p = await client.webhooks.deliveries(hook.id, { status: "succeeded" });
    return p.total === 1 && p;
  });
  expect(page.items[0]!.id).toBe(ping.id);
  expect(verify(hook.secret, r.at("/sdk")[0]!)).toMatchObject({ type: "ping" });
  expect((await client.webhooks.retryDelivery(hook.id, ping.id)).status).toBe("pending");
  await eventually(() => r.at("/sdk").length === 2);
  const delivered: string[] = [];
  for await (const d of client.webhooks.iterateDeliveries(hook.id)) delivered.push(d.id);
  expect(delivered).toEqual([ping.id]);
  const rotated = await client.webhooks.rotateSecret(hook.id);
  expect(rotated.secret).not.toBe(hook.secret);
  const paused = await client.webhooks.update(hook.id, { enabled: false });
  expect([paused.enabled, paused.disabled_reason]).toEqual([false, "manual"]);
  expect((await client.webhooks.delete(hook.id)).deleted).toBe(true);
  const missing = await client.webhooks.get(hook.id).catch((e) => e);
  expect(missing).toBeInstanceOf(sdk.MemoryServiceError);
  expect(missing.code).toBe("NOT_FOUND");
});
