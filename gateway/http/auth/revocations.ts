import type { NatsConnection } from "nats";
import {
  KEY_CHANGED_SUBJECT,
  KEY_REVOKED_SUBJECT,
  type KeyChanged,
  type KeyRevoked,
} from "../../../services/contract/keys";
import { hasScope, type Scope } from "../../../services/contract/op";
import { decodeJson } from "../../../services/kit/wire";
import type { Identity } from "./identity";

/**
 * What the keys service says of a key: revoked (every secret of it fails from now on), or changed (the
 * listed secrets verify differently: scopes, limits, expiry, or a secret replaced by a rotation).
 */
export interface KeyNotice {
  kind: "revoked" | "changed";
  keyId: string;
  /** SHA-256 of the secrets concerned. */
  hashes: string[];
}

const isHash = (h: unknown): h is string => typeof h === "string";

function readNotice(subject: string, data: Uint8Array): KeyNotice | null {
  let notice: Partial<KeyRevoked & KeyChanged> = {};
  try {
    notice = decodeJson(data) as Partial<KeyRevoked & KeyChanged>;
  } catch {
    return null;
  }
  const { key_id: keyId, hash, hashes } = notice;
  if (typeof keyId !== "string") return null;
  if (subject === KEY_REVOKED_SUBJECT) return isHash(hash) ? { kind: "revoked", keyId, hashes: [hash] } : null;
  return Array.isArray(hashes) && hashes.every(isHash) ? { kind: "changed", keyId, hashes } : null;
}

/**
 * Calls `listener` with each key the keys service revokes or changes. The notices are core-NATS broadcasts
 * (no queue group), so every gateway replica hears them. `null` means notices may have been missed: an
 * unreadable one, or a NATS reconnect (core NATS does not replay what was sent meanwhile).
 */
export function onKeyNotice(nc: NatsConnection, listener: (notice: KeyNotice | null) => void): () => void {
  let watching = true;
  const subs = [KEY_REVOKED_SUBJECT, KEY_CHANGED_SUBJECT].map((subject) =>
    nc.subscribe(subject, { callback: (err, msg) => err || listener(readNotice(subject, msg.data)) }),
  );
  void (async () => {
    for await (const s of nc.status()) {
      if (!watching) break;
      if (s.type === "reconnect") listener(null);
    }
  })();
  return () => {
    watching = false;
    for (const sub of subs) sub.unsubscribe();
  };
}

/** setTimeout's longest delay (~24.8 days); a longer one fires at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** How long a revoked key id or a changed secret is remembered: longer than any verification in flight can take. */
const RECENT_MS = 10 * 60_000;

/** Verifies a secret afresh: the identity it gives now, or null when it no longer authenticates. */
export type Recheck = (hash: string) => Promise<Identity | null>;

/** What a key holds open: a stream, admitted by one secret of the key, that needs `scope` while it lasts. */
export interface HeldStream {
  keyId: string;
  hash: string;
  expiresAt: number | null;
  scope: Scope;
  /** Admitted by a browser token the key minted: it ends when the key's secret is replaced, grace or not. */
  token?: boolean;
}

/** Moves `key` to the end, so that insertion order stays time order. */
function remember(recent: Map<string, number>, key: string, now: number) {
  recent.delete(key);
  recent.set(key, now);
}

/** Forgets entries older than RECENT_MS; insertion order is time order. */
function forgetOld(recent: Map<string, number>, now: number) {
  for (const [id, at] of recent) {
    if (at > now - RECENT_MS) break;
    recent.delete(id);
  }
}

/**
 * Ends what a key holds open (GraphQL subscriptions) when it is revoked, on this replica whichever
 * replica took the revocation, or when it expires. A change of the key checks each stream its changed
 * secrets admitted again (`recheck`): it ends if the secret no longer authenticates or lacks the scope,
 * else it ends at the secret's new expiry. A key id revoked, or a secret changed, moments ago is handled
 * as a stream starts: its request may have been authenticated just before the notice arrived.
 */
export function createKeyEnds(nc: NatsConnection, recheck: Recheck) {
  const open = new Map<string, Set<Watcher>>();
  const revoked = new Map<string, number>();
  const changed = new Map<string, number>();

  interface Watcher {
    held: HeldStream;
    end: () => void;
    /** Bumped by every recheck: only the latest one's answer counts. */
    checks: number;
    timer?: ReturnType<typeof setTimeout>;
  }

  const arm = (w: Watcher) => {
    clearTimeout(w.timer);
    const left = w.held.expiresAt === null ? Infinity : w.held.expiresAt - Date.now();
    if (left <= 0) w.end();
    else if (left !== Infinity) w.timer = setTimeout(() => arm(w), Math.min(left, MAX_DELAY_MS));
  };

  const check = (w: Watcher) => {
    const mine = ++w.checks;
    recheck(w.held.hash).then(
      (identity) => {
        if (mine !== w.checks) return;
        if (!identity || (w.held.token && identity.replaced) || !hasScope(identity.caller, w.held.scope)) {
          return w.end();
        }
        w.held = { ...w.held, expiresAt: identity.expiresAt };
        arm(w);
      },
      () => mine === w.checks && w.end(), // cannot tell what the key may do now: as after a missed notice
    );
  };

  const stop = onKeyNotice(nc, (notice) => {
    if (notice === null) {
      for (const ws of [...open.values()]) for (const w of [...ws]) w.end();
      return;
    }
    const now = Date.now();
    forgetOld(revoked, now);
    forgetOld(changed, now);
    const watchers = [...(open.get(notice.keyId) ?? [])];
    if (notice.kind === "revoked") {
      remember(revoked, notice.keyId, now);
      for (const w of watchers) w.end();
      return;
    }
    for (const hash of notice.hashes) remember(changed, hash, now);
    for (const w of watchers) if (notice.hashes.includes(w.held.hash)) check(w);
  });

  return {
    /**
     * Calls `end` once when the key is revoked, when its secret reaches its expiry (`held.expiresAt`, ms
     * since epoch, moved by key changes) or when a change leaves the secret without `held.scope`, whichever
     * comes first; at once if it already has. Returns the function that stops watching.
     */
    watch(held: HeldStream, end: () => void): () => void {
      let done = false;
      let ws = open.get(held.keyId);
      if (!ws) open.set(held.keyId, (ws = new Set()));
      const unwatch = () => {
        done = true;
        clearTimeout(w.timer);
        w.checks++; // a recheck in flight no longer counts
        ws!.delete(w);
        if (ws!.size === 0 && open.get(held.keyId) === ws) open.delete(held.keyId);
      };
      const w: Watcher = {
        held,
        checks: 0,
        end: () => {
          if (done) return;
          unwatch();
          end();
        },
      };
      ws.add(w);
      if (revoked.has(held.keyId)) w.end();
      else {
        arm(w);
        if (changed.has(held.hash)) check(w);
      }
      return unwatch;
    },
    close: stop,
  };
}

export type KeyEnds = ReturnType<typeof createKeyEnds>;
