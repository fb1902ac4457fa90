import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient, type ApiClient } from "../api";
import { gqlClient } from "../graphql/graphql-helpers";
import type { Stack } from "../../scripts/stack/launch";

/**
 * The root key (BOOTSTRAP_ADMIN_KEY, tenant `default`) is the operator's, changed only by configuration:
 * no API call revokes, changes or rotates it, neither its own nor one of another admin key of tenant
 * `default` (where keys the root mints without `tenant_id` land). Revoked, the operator would be locked
 * out until a restart.
 */
let stack: Stack;
let root: ApiClient;
let rootId: string;

const ROOT_REFUSAL = {
  code: "FORBIDDEN",
  message: "The root key is set by BOOTSTRAP_ADMIN_KEY: change it there",
  details: undefined,
};

beforeAll(async () => {
  stack = await testStack();
  root = apiClient(stack.baseUrl, stack.adminKey);
  const { meta } = (await root.get("/v1/keys?limit=1")).body;
  const last = await root.get(`/v1/keys?limit=1&offset=${meta.total - 1}`);
  expect(last.body.data[0].name).toBe("root (bootstrap)");
  rootId = last.body.data[0].id;
});

/** Every change of the root key a caller may try over REST, each refused with the same 403. */
async function expectEveryChangeRefused(api: ApiClient) {
  for (const res of [
    await api.delete(`/v1/keys/${rootId}`),
    await api.patch(`/v1/keys/${rootId}`, { name: "mine now" }),
    await api.post(`/v1/keys/${rootId}/rotate`, {}),
  ]) {
    expect(res.status).toBe(403);
    expect({ ...res.body.error, details: res.body.error.details }).toEqual(ROOT_REFUSAL);
  }
}

/** The root key still authenticates, unchanged. */
async function expectRootIntact() {
  const res = await root.get(`/v1/keys/${rootId}`);
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ id: rootId, name: "root (bootstrap)", revoked_at: null, scopes: ["*"] });
}

describe("the root key cannot be revoked, changed or rotated through the API", () => {
  test("by itself, over REST and GraphQL", async () => {
    await expectEveryChangeRefused(root);
    const gql = gqlClient(stack.baseUrl, stack.adminKey);
    const r = await gql.raw(`mutation { revokeKey(id: "${rootId}") { id revoked } }`);
    expect(r.errors?.map((e) => [e.extensions.code, e.message])).toEqual([[ROOT_REFUSAL.code, ROOT_REFUSAL.message]]);
    await expectRootIntact();
  });

  test("by an admin key of tenant default, which reads it (never its secret) but changes nothing", async () => {
    const minted = await root.post("/v1/keys", { name: "default admin", scopes: ["*"] });
    expect(minted.status).toBe(200);
    expect(minted.body.data.tenant_id).toBe("default");
    const admin = apiClient(stack.baseUrl, minted.body.data.key);
    try {
      const read = await admin.get(`/v1/keys/${rootId}`);
      expect(read.status).toBe(200);
      expect(read.body.data).not.toHaveProperty("key");
      expect(read.body.data).not.toHaveProperty("hash");
      expect(JSON.stringify(read.body)).not.toContain(stack.adminKey);
      await expectEveryChangeRefused(admin);
      const gql = gqlClient(stack.baseUrl, minted.body.data.key);
      const r = await gql.raw(`mutation { revokeKey(id: "${rootId}") { id revoked } }`);
      expect(r.errors?.map((e) => e.extensions.code)).toEqual(["FORBIDDEN"]);
      await expectRootIntact();
    } finally {
      expect((await root.delete(`/v1/keys/${minted.body.data.id}`)).status).toBe(200);
    }
  });
});
