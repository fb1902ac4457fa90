import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type NatsConnection } from "nats";
import { startNats, type NatsProcess } from "../../../scripts/stack/infra";
import { KEY_CHANGED_SUBJECT, KEY_REVOKED_SUBJECT, revokedNotice } from "../../../services/contract/keys";
import type { Scope } from "../../../services/contract/op";
import { encodeJson } from "../../../services/kit/wire";
import type { Identity } from "./identity";
import { createKeyEnds, onKeyNotice, type HeldStream, type KeyEnds } from "./revocations";

/** Revocation and change notices over a real NATS: what ends a key's open streams, and when. */
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
  ends = createKeyEnds(nc, (hash) => recheck(hash));
  await nc.flush();
});

afterAll(async () => {
  ends.close();
  await nc.close();
  await publisher.close();
  await nats.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** What the keys service answers a recheck, per secret hash (absent: the secret no longer authenticates). */
const now: Map<string, Omit<Identity, "hash">> = new Map();
const rechecked: string[] = [];
let recheck = async (hash: string): Promise<Identity | null> => {
  rechecked.push(hash);
  const identity = now.get(hash);
  return identity ? { ...identity, hash } : null;
};
const identity = (keyId: string, scopes: Scope[], expiresAt: number | null = null) => ({
  caller: { tenant: "acme", env: "live" as const, keyId, scopes },
  label: { name: keyId, prefix: "svc_live_xxxx" },
  limits: { perMinute: 100, perDay: 0 },
  expiresAt,
});

/** A stream of key `keyId` admitted by secret `hash`, needing memories:read. */
const held = (keyId: string, expiresAt: number | null = null, hash = `${keyId}-secret`): HeldStream => ({
  keyId,
  hash,
  expiresAt,
  scope: "memories:read",
});

const deliver = async () => {
  await publisher.flush();
  await nc.flush(); // the notice has been delivered to `nc` once its own PONG is back
};

const revoke = async (id: string) => {
  publisher.publish(KEY_REVOKED_SUBJECT, encodeJson(revokedNotice({ id, hash: "h".repeat(64) })));
  await deliver();
};

const change = async (id: string, hashes: string[]) => {
  publisher.publish(KEY_CHANGED_SUBJECT, encodeJson({ key_id: id, hashes }));
  await deliver();
  await Bun.sleep(10); // the rechecks answer
};

/** Counts the calls of an `end` callback. */
const counter = () => {
  const calls: number[] = [];
  return { calls, end: () => void calls.push(Date.now()) };
};

describe("createKeyEnds", () => {
  test("a revocation ends that key's watchers once, and no other key's", async () => {
    const [a1, a2, b] = [counter(), counter(), counter()];
    ends.watch(held("a"), a1.end);
    ends.watch(held("a"), a2.end);
    const unwatchB = ends.watch(held("b"), b.end);
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
    ends.watch(held("late"), c.end);
    expect(c.calls.length).toBe(1);
  });

  test("expiry ends a watcher at expires_at, a past one at once, one past setTimeout's range not now", async () => {
    const soon = counter();
    const at = Date.now() + 150;
    ends.watch(held("e1", at), soon.end);
    const past = counter();
    ends.watch(held("e2", Date.now() - 1), past.end);
    expect(past.calls.length).toBe(1);
    const far = counter();
    const unwatchFar = ends.watch(held("e3", Date.now() + 40 * 24 * 3600_000), far.end);
    await Bun.sleep(300);
    expect(soon.calls.length).toBe(1);
    expect(soon.calls[0]!).toBeGreaterThanOrEqual(at);
    expect(far.calls.length).toBe(0);
    unwatchFar();
  });

  test("notices are read as sent: a revocation names its secret, a change its secrets", async () => {
    const seen: unknown[] = [];
    const stop = onKeyNotice(nc, (notice) => seen.push(notice));
    await nc.flush();
    await revoke("r1");
    await change("c1", ["s1", "s2"]);
    stop();
    expect(seen).toEqual([
      { kind: "revoked", keyId: "r1", hashes: ["h".repeat(64)] },
      { kind: "changed", keyId: "c1", hashes: ["s1", "s2"] },
    ]);
  });

  test("a change rechecks the streams of the secrets it names: ended without the scope or the secret", async () => {
    const [kept, narrowed, rotated, other] = [counter(), counter(), counter(), counter()];
    ends.watch(held("c2", null, "kept"), kept.end);
    ends.watch(held("c2", null, "narrowed"), narrowed.end);
    ends.watch(held("c2", null, "rotated"), rotated.end);
    ends.watch(held("c2", null, "new"), other.end);
    now.set("kept", identity("c2", ["memories:read", "admin"]));
    now.set("narrowed", identity("c2", ["memories:write"]));
    rechecked.length = 0;
    await change("c2", ["kept", "narrowed", "rotated"]); // "rotated" verifies no more
    expect(rechecked.sort()).toEqual(["kept", "narrowed", "rotated"]); // not "new": its secret did not change
    expect([kept, narrowed, rotated, other].map((c) => c.calls.length)).toEqual([0, 1, 1, 0]);
  });

  test("a change moves a stream's end to its secret's new expiry, sooner or later", async () => {
    const [sooner, later] = [counter(), counter()];
    const first = Date.now() + 150;
    ends.watch(held("c3", first, "sooner"), sooner.end);
    ends.watch(held("c3", first, "later"), later.end);
    const soon = Date.now() + 60;
    now.set("sooner", identity("c3", ["*"], soon));
    now.set("later", identity("c3", ["*"], Date.now() + 400));
    await change("c3", ["sooner", "later"]);
    await Bun.sleep(200);
    expect(sooner.calls.length).toBe(1);
    expect(sooner.calls[0]!).toBeGreaterThanOrEqual(soon);
    expect(sooner.calls[0]!).toBeLessThan(first);
    expect(later.calls.length).toBe(0); // past its first expiry
    await Bun.sleep(300);
    expect(later.calls.length).toBe(1);
  });

  test("only the latest recheck counts; one that fails ends the stream", async () => {
    const w = counter();
    ends.watch(held("c4", null, "s"), w.end);
    const answers: ((id: Identity | null) => void)[] = [];
    const real = recheck;
    recheck = (_hash) => new Promise((resolve) => answers.push(resolve));
    await change("c4", ["s"]);
    await change("c4", ["s"]);
    answers[1]!({ ...identity("c4", ["*"]), hash: "s" }); // the latest: the key may still read
    answers[0]!(null); // an older answer arriving late
    await Bun.sleep(10);
    expect(w.calls.length).toBe(0);
    recheck = () => Promise.reject(new Error("keys service unreachable"));
    await change("c4", ["s"]);
    expect(w.calls.length).toBe(1);
    recheck = real;
  });

  test("a secret changed moments before its stream is watched is rechecked at once", async () => {
    await change("c5", ["late"]);
    rechecked.length = 0;
    const w = counter();
    ends.watch(held("c5", null, "late"), w.end); // admitted with what the key held before the change
    await Bun.sleep(10);
    expect(rechecked).toEqual(["late"]);
    expect(w.calls.length).toBe(1);
  });

  test("an unreadable notice ends every watcher: revocations may have been missed", async () => {
    const [x, y] = [counter(), counter()];
    ends.watch(held("x"), x.end);
    ends.watch(held("y"), y.end);
    publisher.publish(KEY_REVOKED_SUBJECT, encodeJson({ hash: "only a hash" }));
    await publisher.flush();
    await nc.flush();
    expect([x.calls.length, y.calls.length]).toEqual([1, 1]);
  });

  test("a NATS reconnect reports possibly missed notices (null)", async () => {
    const seen: unknown[] = [];
    const stop = onKeyNotice(nc, (notice) => seen.push(notice));
    const w = counter();
    ends.watch(held("w"), w.end);
    await nats.restart();
    const deadline = Date.now() + 10_000;
    while (seen.length === 0 && Date.now() < deadline) await Bun.sleep(20);
    stop();
    expect(seen).toEqual([null]);
    expect(w.calls.length).toBe(1);
  }, 20_000);
});
