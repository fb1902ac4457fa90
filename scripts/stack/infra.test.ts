import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Redis from "ioredis";
import { AckPolicy, connect, StringCodec } from "nats";
import { freePort, startNats, startRedis, type NatsProcess, type RedisProcess } from "./infra.ts";

const dataDir = mkdtempSync(join(tmpdir(), "infra-test-"));
let redis: RedisProcess | undefined;
let nats: NatsProcess | undefined;

afterAll(async () => {
  await redis?.stop();
  await nats?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("freePort returns a usable port", async () => {
  const port = await freePort();
  expect(port).toBeGreaterThan(0);
  expect(port).toBeLessThan(65536);
});

describe("redis", () => {
  beforeAll(async () => {
    redis = await startRedis({ dataDir });
  });

  const client = () => new Redis(redis!.url, { maxRetriesPerRequest: 1, retryStrategy: () => null });

  test("vector sets (VADD/VSIM) are available", async () => {
    const r = client();
    try {
      expect(await r.call("VADD", "vs", "VALUES", "3", "1", "0", "0", "a")).toBe(1);
      expect(await r.call("VADD", "vs", "VALUES", "3", "0", "1", "0", "b")).toBe(1);
      const hits = (await r.call("VSIM", "vs", "VALUES", "3", "0.9", "0.1", "0", "COUNT", "2")) as string[];
      expect(hits).toEqual(["a", "b"]);
    } finally {
      r.disconnect();
    }
  });

  test("acknowledged writes survive kill -9 (AOF reload)", async () => {
    const r = client();
    // The rule holds outside its documented exception (infra.ts): while a background fsync runs, everysec
    // postpones the write yet replies. The earlier test's VADDs may have started one: it ends first.
    const fsyncing = async () => /aof_pending_bio_fsync:[1-9]/.test(await r.info("persistence"));
    for (let waited = 0; (await fsyncing()) && waited < 5_000; waited += 20) await Bun.sleep(20);
    await r.set("durable", "yes");
    r.disconnect();
    const oldPid = redis!.pid;
    await redis!.kill9();
    await redis!.restart();
    expect(redis!.pid).not.toBe(oldPid);
    const r2 = client();
    try {
      expect(await r2.get("durable")).toBe("yes");
      expect(await r2.call("VCARD", "vs")).toBe(2);
    } finally {
      r2.disconnect();
    }
  });
});

describe("nats", () => {
  beforeAll(async () => {
    nats = await startNats({ dataDir });
  });

  test("JetStream round trip with 8 MB max_payload", async () => {
    const nc = await connect({ servers: nats!.url });
    try {
      expect(nc.info?.max_payload).toBe(8 * 1024 * 1024);
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({ name: "T", subjects: ["t.>"] });
      await jsm.consumers.add("T", { durable_name: "c", ack_policy: AckPolicy.Explicit });
      const sc = StringCodec();
      const js = nc.jetstream();
      const ack = await js.publish("t.hello", sc.encode("hi"));
      expect(ack.seq).toBe(1);
      const msg = await (await js.consumers.get("T", "c")).next({ expires: 2000 });
      expect(msg && sc.decode(msg.data)).toBe("hi");
      msg?.ack();
    } finally {
      await nc.close();
    }
  });

  test("stream survives kill -9 + restart", async () => {
    await nats!.kill9();
    await nats!.restart();
    const nc = await connect({ servers: nats!.url });
    try {
      const info = await (await nc.jetstreamManager()).streams.info("T");
      expect(info.state.messages).toBe(1);
    } finally {
      await nc.close();
    }
  });
});
