import { describe, expect, test, beforeAll, afterAll } from "bun:test";
import { Type as T } from "@sinclair/typebox";
import { connect, type NatsConnection } from "nats";
import { testStack } from "../../test/harness";
import { op } from "../contract/op";
import { ServiceError } from "../contract/errors";
import { createBus, neverRan } from "./bus";
import { bind } from "./handler";
import { serveBindings } from "./serve";
import { createLogger } from "./log";
import { encodeJson, LOST_AFTER_MS } from "./wire";

const echo = op({
  subject: `test.echo.${crypto.randomUUID().slice(0, 8)}`,
  input: T.Object({ n: T.Integer() }),
  output: T.Object({ n: T.Integer() }),
  summary: "echo",
});
const slow = op({
  subject: `test.slow.${crypto.randomUUID().slice(0, 8)}`,
  input: T.Object({}),
  output: T.Object({}),
  summary: "slow",
});
const read = op({
  subject: `test.read.${crypto.randomUUID().slice(0, 8)}`,
  input: T.Object({}),
  output: T.Object({ n: T.Integer() }),
  summary: "read",
  idempotent: true,
});
const write = op({
  subject: `test.write.${crypto.randomUUID().slice(0, 8)}`,
  input: T.Object({}),
  output: T.Object({ n: T.Integer() }),
  summary: "write",
});
const nobody = op({
  subject: `test.nobody.${crypto.randomUUID().slice(0, 8)}`,
  input: T.Object({}),
  output: T.Object({}),
  summary: "unserved",
});

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connect({ servers: (await testStack()).natsUrl });
});
afterAll(async () => {
  await nc.close();
});

describe("serve + bus over real NATS", () => {
  const log = createLogger({ test: true }, "error");

  test("a handler's result, a domain error after an await, an unexpected error: exactly one reply each", async () => {
    const served = await serveBindings(
      nc,
      { name: "testsvc", version: "0.0.1", description: "test" },
      [
        bind(echo, async (input) => {
          await Bun.sleep(1);
          if (input.n === 404) throw new ServiceError("NOT_FOUND", "Thing not found");
          if (input.n === 500) throw new Error("boom with internals");
          return { n: input.n * 2 };
        }),
      ],
      log,
    );
    const bus = createBus(nc, { timeoutMs: 2000 });
    expect(await bus.call(echo, { n: 21 }, { requestId: "r1" })).toEqual({ n: 42 });
    expect(bus.call(echo, { n: 404 }, { requestId: "r2" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Thing not found",
    });
    const internal = await bus.call(echo, { n: 500 }, { requestId: "r3" }).catch((e) => e);
    expect(internal).toMatchObject({ code: "INTERNAL_ERROR" });
    expect(internal.message).not.toContain("internals");
    const stats = await served.service.stats();
    expect(stats.endpoints?.[0]?.num_requests).toBe(3);
    expect(stats.endpoints?.[0]?.data).toMatchObject({ requests: 3, errors: 2, in_flight: 0 });
    await served.stop();
  });

  test("invalid input is refused before it leaves the caller", async () => {
    const bus = createBus(nc, { timeoutMs: 2000 });
    const err = await bus.call(echo, { n: "x" } as never, { requestId: "r4" }).catch((e) => e);
    expect(err).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "n" } });
  });

  test("no responders → SERVICE_UNAVAILABLE (503), known to have run nothing", async () => {
    const bus = createBus(nc, { timeoutMs: 2000 });
    const err = await bus.call(nobody, {}, { requestId: "r5" }).catch((e) => e);
    expect(err).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(neverRan(err)).toBe(true);
    expect(neverRan(new ServiceError("SERVICE_UNAVAILABLE", err.message))).toBe(false);
  });

  test("a responder that never answers → TIMEOUT (504)", async () => {
    const sub = nc.subscribe(slow.subject, { callback: () => undefined });
    const bus = createBus(nc, { timeoutMs: 200 });
    const started = Date.now();
    await expect(bus.call(slow, {}, { requestId: "r6" })).rejects.toMatchObject({ code: "TIMEOUT" });
    expect(Date.now() - started).toBeLessThan(2000);
    sub.unsubscribe();
  });

  test("a handler slower than LOST_AFTER_MS is kept alive by heartbeats and answers", async () => {
    const served = await serveBindings(
      nc,
      { name: "testslow", version: "0.0.1", description: "test" },
      [bind(write, async () => (await Bun.sleep(LOST_AFTER_MS + 600), { n: 1 }))],
      log,
    );
    const bus = createBus(nc, { timeoutMs: 5000 });
    expect(await bus.call(write, {}, { requestId: "r7" })).toEqual({ n: 1 });
    await served.stop();
  });

  test("a handler waiting on a Redis in trouble answers 503 before the caller's timeout; otherwise 504", async () => {
    let troubled = true;
    const served = await serveBindings(
      nc,
      { name: "testbudget", version: "0.0.1", description: "test" },
      [bind(write, async () => (await Bun.sleep(2500), { n: 1 }))],
      log,
      { troubledSince: () => troubled },
    );
    const bus = createBus(nc, { timeoutMs: 1500 });
    let started = performance.now();
    const unavailable = await bus.call(write, {}, { requestId: "rb1" }).catch((e) => e);
    expect(unavailable).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(unavailable.message).toContain("may or may not have been applied");
    expect(performance.now() - started).toBeLessThan(1500);
    troubled = false;
    started = performance.now();
    await expect(bus.call(write, {}, { requestId: "rb2" })).rejects.toMatchObject({ code: "TIMEOUT" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1450);
    await Bun.sleep(1100); // both handlers end; the first one's late result must not be a second reply
    const stats = await served.service.stats();
    expect(stats.endpoints?.[0]?.data).toMatchObject({ requests: 2, in_flight: 0 });
    await served.stop();
  });

  test("silent (dead) responder: a write answers 503 'may or may not' after LOST_AFTER_MS, not replayed", async () => {
    let received = 0;
    // Takes it, never answers, no heartbeat.
    const sub = nc.subscribe(write.subject, { callback: () => void received++ });
    const bus = createBus(nc, { timeoutMs: 5000 });
    const started = Date.now();
    const err = await bus.call(write, {}, { requestId: "r8" }).catch((e) => e);
    const took = Date.now() - started;
    expect(err).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: "The service stopped before answering; the change may or may not have been applied",
    });
    expect(neverRan(err)).toBe(false);
    expect(took).toBeGreaterThanOrEqual(LOST_AFTER_MS - 50);
    expect(took).toBeLessThan(LOST_AFTER_MS + 500);
    expect(received).toBe(1);
    sub.unsubscribe();
  });

  test("an idempotent read whose responder went silent is sent once more, and the second answer is used", async () => {
    let received = 0;
    const sub = nc.subscribe(read.subject, {
      callback: (_e, msg) => void (++received === 2 && msg.respond(encodeJson({ data: { n: received } }))),
    });
    const outcomes: string[] = [];
    const bus = createBus(nc, { timeoutMs: 5000, observe: (_s, _ms, outcome) => outcomes.push(outcome) });
    expect(await bus.call(read, {}, { requestId: "r9" })).toEqual({ n: 2 });
    expect(outcomes).toEqual(["lost", "ok"]);
    sub.unsubscribe();
  });

  test("an idempotent read is retried once only: two silent attempts → 503", async () => {
    let received = 0;
    const sub = nc.subscribe(read.subject, { callback: () => void received++ });
    const bus = createBus(nc, { timeoutMs: 5000 });
    const err = await bus.call(read, {}, { requestId: "r10" }).catch((e) => e);
    expect(err).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: "The service is unavailable, retry shortly" });
    expect(received).toBe(2);
    sub.unsubscribe();
  });
});
