import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type NatsConnection } from "nats";
import { testStack } from "../harness";
import { newTenant } from "../api";
import { createBus, type Bus } from "../../services/kit/bus";
import { getEntities } from "../../services/contract/entities";
import type { Caller } from "../../services/contract/op";
import { ServiceError } from "../../services/contract/errors";

/** `entities.getMany` (added for GraphQL's entity DataLoader), called on the bus as the gateway does. */
let nc: NatsConnection;
let bus: Bus;

beforeAll(async () => {
  nc = await connect({ servers: (await testStack()).natsUrl.split(",") });
  bus = createBus(nc, { timeoutMs: 5000 });
});
afterAll(async () => {
  await nc?.close();
});

const callerOf = (tenant: string, env: "live" | "test" = "live"): Caller => ({
  tenant,
  env,
  keyId: "k",
  scopes: ["memories:read"],
});

describe("entities.getMany", () => {
  test("answers entities aligned with the ids asked, null where unknown or another tenant's", async () => {
    const { baseUrl, adminKey } = await testStack();
    const mine = await newTenant(baseUrl, adminKey);
    const other = await newTenant(baseUrl, adminKey);
    const m = (await mine.api.post("/v1/memories", { content: "m" })).body.data;
    const a = (await mine.api.post("/v1/entities", { name: "A", type: "person", memory_ids: [m.id] })).body.data;
    const b = (await mine.api.post("/v1/entities", { name: "B", type: "place" })).body.data;
    const theirs = (await other.api.post("/v1/entities", { name: "T", type: "person" })).body.data;
    const unknown = "00000000-0000-4000-8000-000000000000";

    const out = await bus.call(
      getEntities,
      { ids: [b.id, unknown, a.id, theirs.id, "not-a-uuid", a.id] },
      { requestId: "t1", caller: callerOf(mine.tenant) },
    );
    expect(out.items).toEqual([b, null, { ...a, memory_count: 1 }, null, null, { ...a, memory_count: 1 }]);
    expect((await mine.api.get(`/v1/entities/${a.id}`)).body.data).toEqual(out.items[2]);
    expect(await bus.call(getEntities, { ids: [] }, { requestId: "t2", caller: callerOf(mine.tenant) })).toEqual({
      items: [],
    });
    // The same tenant's other environment is another space.
    expect(
      (await bus.call(getEntities, { ids: [a.id] }, { requestId: "t3", caller: callerOf(mine.tenant, "test") })).items,
    ).toEqual([null]);
  });

  test("at most 1000 ids; no caller is refused", async () => {
    const ids = Array.from({ length: 1001 }, () => crypto.randomUUID());
    await expect(bus.call(getEntities, { ids }, { requestId: "t4", caller: callerOf("x") })).rejects.toEqual(
      new ServiceError("VALIDATION_ERROR", "ids must have at most 1000 items", {
        field: "ids",
        constraint: "max_items",
        max: 1000,
      }),
    );
    await expect(bus.call(getEntities, { ids: [] }, { requestId: "t5" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});
