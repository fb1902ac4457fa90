import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type NatsConnection } from "nats";
import { testStack } from "../../test/harness";
import { coalesceWritesPerTurn } from "./nats-writes";

let url: string;
const opened: NatsConnection[] = [];
beforeAll(async () => {
  url = (await testStack()).natsUrl;
});
afterAll(async () => {
  for (const nc of opened) await nc.close();
});

async function connection(coalesced: boolean) {
  const nc = await connect({ servers: url });
  opened.push(nc);
  if (coalesced) expect(coalesceWritesPerTurn(nc)).toBe(true);
  const transport = (nc as unknown as { protocol: { transport: { send: (b: Uint8Array) => void } } }).protocol
    .transport;
  const send = transport.send.bind(transport);
  const writes = { count: 0 };
  transport.send = (b) => {
    writes.count++;
    send(b);
  };
  return { nc, writes };
}

/** Publishes `n` messages, each from its own async continuation (like request handlers finishing). */
async function publishFromContinuations(nc: NatsConnection, subject: string, n: number) {
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      for (let hop = 0; hop < i % 4; hop++) await Promise.resolve();
      nc.publish(subject, new TextEncoder().encode(String(i)));
    }),
  );
}

describe("NATS writes coalesced per event-loop turn", () => {
  test("the installed nats.js still has the internal the patch replaces (an upgrade without it fails)", async () => {
    const nc = await connect({ servers: url });
    opened.push(nc);
    const protocol = (nc as unknown as { protocol?: { flushPending?: unknown } }).protocol;
    expect(typeof protocol?.flushPending).toBe("function");
    expect(coalesceWritesPerTurn(nc)).toBe(true);
  });

  test("messages published from many continuations of one turn leave in one write, all delivered", async () => {
    const { nc, writes } = await connection(true);
    const listener = await connect({ servers: url });
    opened.push(listener);
    const subject = `coalesce.${crypto.randomUUID()}`;
    const got: string[] = [];
    const sub = listener.subscribe(subject, { max: 20 });
    const received = (async () => {
      for await (const m of sub) got.push(m.string());
    })();
    await listener.flush();

    await new Promise<void>((resolve) => setImmediate(resolve)); // start on a fresh turn
    writes.count = 0;
    await publishFromContinuations(nc, subject, 20);
    expect(writes.count).toBe(0); // nothing written before the turn ends
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(writes.count).toBe(1);
    await received;
    expect(got.sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
  });

  test("without it the same publishing takes several writes (what the change is for)", async () => {
    const { nc, writes } = await connection(false);
    await new Promise<void>((resolve) => setImmediate(resolve));
    writes.count = 0;
    await publishFromContinuations(nc, `coalesce.${crypto.randomUUID()}`, 20);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(writes.count).toBeGreaterThan(1);
  });

  test("request-reply and flush still complete on a coalesced connection", async () => {
    const { nc } = await connection(true);
    const subject = `coalesce.echo.${crypto.randomUUID()}`;
    nc.subscribe(subject, { callback: (_e, m) => m.respond(m.data) });
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, i) => nc.request(subject, new TextEncoder().encode(`r${i}`), { timeout: 2000 })),
    );
    expect(replies.map((r) => r.string())).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    await nc.flush();
  });

  test("a connection object without nats.js' flushPending is left alone", () => {
    expect(coalesceWritesPerTurn({} as NatsConnection)).toBe(false);
  });
});
