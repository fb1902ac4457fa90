import { expect, test } from "bun:test";
import { SERVICE_NAMES } from "../../scripts/stack/launch";
import { WEBHOOK_TEST_ENV } from "../harness";
import { newTenant } from "../api";
import { receiver, register, verify } from "../webhooks/webhook-helpers";
import { figure } from "./fault-figures";
import { fileStack, waitFor } from "./fault-stack";

/**
 * Fault 7: the webhooks service is killed (kill -9) in the middle of a burst of writes, and started again.
 * Events it had pulled from JetStream but not handed to Redis come back after their ack wait; deliveries it
 * had claimed but not settled are claimed again when their lease ends. So every event reaches the receiver
 * at least once, none is lost, and what arrives twice carries the same webhook-id.
 */
const HAS_WEBHOOKS = SERVICE_NAMES.includes("webhooks");
// Attempts time out after 2 s, so a dead replica's claims come free after 7 s (timeout + 5 s).
const fault = fileStack("webhooks", {
  when: HAS_WEBHOOKS,
  without: ["search"],
  env: { ...WEBHOOK_TEST_ENV, WEBHOOK_TIMEOUT_MS: "2000" },
});
const WRITES = 600;

test.skipIf(!HAS_WEBHOOKS)(
  "kill -9 of the webhooks service mid-burst: after a restart every event is delivered at least once",
  async () => {
    const stack = fault.stack;
    // A receiver that takes a little time, so attempts are in flight when the service dies.
    const r = receiver(async () => {
      await Bun.sleep(20);
      return 200;
    });
    const t = await newTenant(stack.baseUrl, stack.adminKey, { rate_limit: 10_000_000 });
    const { secret } = await register(t.api, r.url("/burst"), ["memory.created"]);
    const created: string[] = [];
    let killedAt = -1;
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < WRITES) {
          const n = next++;
          const res = await t.api.post("/v1/memories", { content: `burst ${n}` });
          if (res.status !== 200) throw new Error(`write ${n}: ${res.status} ${JSON.stringify(res.body)}`);
          created.push(res.body.data.id);
          if (killedAt < 0 && r.got.length >= 100) {
            killedAt = created.length;
            await stack.services.webhooks[0]!.kill9();
          }
        }
      }),
    );
    expect(killedAt).toBeGreaterThan(0);
    const receivedBeforeRestart = new Set(r.got.map((g) => g.event.data.memory_id)).size;
    stack.addReplica("webhooks");
    const received = () => new Set(r.got.map((g) => g.event.data.memory_id));
    const converged = await waitFor(() => created.every((id) => received().has(id)), 60_000, 100);
    const ids = r.got.map((g) => g.headers["webhook-id"]);
    const duplicates = ids.length - new Set(ids).size;
    const after = converged === null ? "NOT within 60 s" : `${(converged / 1000).toFixed(1)} s after the restart`;
    figure(
      "7 webhooks",
      `${WRITES} writes, webhooks killed after ${killedAt} (${receivedBeforeRestart} delivered by the restart); ` +
        `all delivered ${after}, ${duplicates} delivered twice (same webhook-id)`,
    );
    expect(converged).not.toBeNull();
    expect(received().size).toBe(WRITES);
    for (const g of r.got) verify(secret, g);
    // A repeat is the same event: its id and body are the first delivery's.
    const firstBody = new Map<string, string>();
    for (const g of r.got) {
      const id = g.headers["webhook-id"]!;
      expect(g.body).toBe(firstBody.get(id) ?? g.body);
      firstBody.set(id, g.body);
    }
  },
  120_000,
);
