import { describe, expect, test } from "bun:test";
import { connect } from "nats";
import { testStack } from "../harness";
import { expectGqlError, gqlTenant } from "./graphql-helpers";

/**
 * Issue 5: errors that are not the client's. The tags service is stopped for this test (and
 * restarted after it): a call with no responder is SERVICE_UNAVAILABLE; a stand-in that answers
 * garbage makes an unexpected error, which must reach the client masked as INTERNAL_ERROR.
 */
describe("faults", () => {
  test("a service down is SERVICE_UNAVAILABLE; a broken answer is masked as INTERNAL_ERROR", async () => {
    const stack = await testStack();
    const t = await gqlTenant();
    const m = (await t.api.post("/v1/memories", { content: "m" })).body.data;
    const tag = (await t.api.post("/v1/tags", { name: "secret-internals", description: "d" })).body.data;
    await t.api.post(`/v1/memories/${m.id}/tags`, { tag_ids: [tag.id] });

    const stopped = stack.services.tags.splice(0);
    await Promise.all(stopped.map((c) => c.stop()));
    const nc = await connect({ servers: stack.natsUrl.split(",") });
    try {
      const down = await t.gql.raw(`{ tags { total } memories { total } }`);
      expect(down.data).toEqual({ tags: null, memories: { total: 1 } });
      expectGqlError(down, "SERVICE_UNAVAILABLE", "The service is unavailable, retry shortly", undefined, ["tags"]);

      nc.subscribe("tags.getMany", {
        callback: (_err, msg) =>
          msg.respond(new TextEncoder().encode(JSON.stringify({ data: { items: "secret-internals" } }))),
      });
      await nc.flush();
      const broken = await t.gql.raw(`query($id: ID!) { memory(id: $id) { content tags { description } } }`, {
        id: m.id,
      });
      expect(broken.status).toBe(200);
      expect(broken.data).toEqual({ memory: null }); // tags is non-null: the error nulls the memory
      expectGqlError(broken, "INTERNAL_ERROR", "An unexpected error occurred", undefined, ["memory", "tags"]);
      expect(JSON.stringify(broken.errors)).not.toMatch(/secret-internals|DataLoader|stack/i);
    } finally {
      await nc.close();
      stack.addReplica("tags");
      await stack.waitReady();
    }
    expect((await t.gql.request(`{ tags { total } }`)).tags.total).toBe(1);
  }, 60_000);
});
