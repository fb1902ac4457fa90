import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type NatsConnection } from "nats";
import { startNats, type NatsProcess } from "../../scripts/stack/infra";
import { KEY_REVOKED_SUBJECT, revokedNotice } from "../../services/contract/keys";
import { encodeJson } from "../../services/kit/wire";
import { createKeyEnds, onRevocation, type KeyEnds } from "./revocations";

/** Revocation notices over a real NATS: what ends a key's open streams, and when. */
let dir: string;
let nats: NatsProcess;
let nc: NatsConnection;
let publisher: NatsConnection;
let ends: KeyEnds;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "revocations-"));
  nats = await startNats({ dataDir: dir });
  nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 50 });
  publisher = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 50 });
  ends = createKeyEnds(nc);
  await nc.flush();
});

afterAll(async () => {
  ends.close();
  await nc.close();
  await publisher.close();
  await nats.stop();
  rmSync(dir, { recursive: true, force: true });
});

const revoke = async (id: string) => {
  publisher.publish(KEY_REVOKED_SUBJECT, encodeJson(revokedNotice({ id, hash: "h".repeat(64) })));
  await publisher.flush();
  await nc.flush(); // the notice has been delivered to `nc` once its own PONG is back
};

/** Counts the calls of an `end` callback. */
const counter = () => {
  const calls: number[] = [];
  return { calls, end: () => void calls.push(Date.now()) };
};

describe("createKeyEnds", () => {
  test("a revocation ends that key's watchers once, and no other key's", async () => {
    const [a1, a2, b] = [counter(), counter(), counter()];
    ends.watch({ keyId: "a", expiresAt: null }, a1.end);
    ends.watch({ keyId: "a", expiresAt: null }, a2.end);
    const unwatchB = ends.watch({ keyId: "b", expiresAt: null }, b.end);
    await revoke("a");
    await revoke("a");
    expect([a1.calls.length, a2.calls.length, b.calls.length]).toEqual([1, 1, 0]);
    unwatchB();
    await revoke("b");
    expect(b.calls.length).toBe(0); // no longer watched
  });

  test("a key revoked moments before it is watched ends at once (its request was admitted just before)", async () => {
    await revoke("late");
    const c = counter();
    ends.watch({ keyId: "late", expiresAt: null }, c.end);
    expect(c.calls.length).toBe(1);
  });

  test("expiry ends a watcher at expires_at, a past one at once, one past setTimeout's range not now", async () => {
    const soon = counter();
    const at = Date.now() + 150;
    ends.watch({ keyId: "e1", expiresAt: at }, soon.end);
    const past = counter();
    ends.watch({ keyId: "e2", expiresAt: Date.now() - 1 }, past.end);
    expect(past.calls.length).toBe(1);
    const far = counter();
    const unwatchFar = ends.watch({ keyId: "e3", expiresAt: Date.now() + 40 * 24 * 3600_000 }, far.end);
    await Bun.sleep(300);
    expect(soon.calls.length).toBe(1);
    expect(soon.calls[0]!).toBeGreaterThanOrEqual(at);
    expect(far.calls.length).toBe(0);
    unwatchFar();
  });

  test("an unreadable notice ends every watcher: revocations may have been missed", async () => {
    const [x, y] = [counter(), counter()];
    ends.watch({ keyId: "x", expiresAt: null }, x.end);
    ends.watch({ keyId: "y", expiresAt: null }, y.end);
    publisher.publish(KEY_REVOKED_SUBJECT, encodeJson({ hash: "only a hash" }));
    await publisher.flush();
    await nc.flush();
    expect([x.calls.length, y.calls.length]).toEqual([1, 1]);
  });

  test("a NATS reconnect reports possibly missed revocations (null)", async () => {
    const seen: unknown[] = [];
    const stop = onRevocation(nc, (key) => seen.push(key));
    const w = counter();
    ends.watch({ keyId: "w", expiresAt: null }, w.end);
    await nats.restart();
    const deadline = Date.now() + 10_000;
    while (seen.length === 0 && Date.now() < deadline) await Bun.sleep(20);
    stop();
    expect(seen).toEqual([null]);
    expect(w.calls.length).toBe(1);
  }, 20_000);
});
