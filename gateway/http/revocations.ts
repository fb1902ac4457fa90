import type { NatsConnection } from "nats";
import { KEY_REVOKED_SUBJECT, type KeyRevoked } from "../../services/contract/keys";
import { decodeJson } from "../../services/kit/wire";

export interface Revoked {
  hash: string;
  keyId: string;
}

/**
 * Calls `listener` with each key the keys service revokes. The notice is a core-NATS broadcast (no
 * queue group), so every gateway replica hears it. `null` means revocations may have been missed:
 * an unreadable notice, or a NATS reconnect (core NATS does not replay what was sent meanwhile).
 */
export function onRevocation(nc: NatsConnection, listener: (key: Revoked | null) => void): () => void {
  let watching = true;
  const sub = nc.subscribe(KEY_REVOKED_SUBJECT, {
    callback: (err, msg) => {
      if (err) return;
      let notice: Partial<KeyRevoked> = {};
      try {
        notice = decodeJson(msg.data) as Partial<KeyRevoked>;
      } catch {
        /* unreadable: treated as a missed revocation */
      }
      const { hash, key_id: keyId } = notice;
      listener(typeof hash === "string" && typeof keyId === "string" ? { hash, keyId } : null);
    },
  });
  void (async () => {
    for await (const s of nc.status()) {
      if (!watching) break;
      if (s.type === "reconnect") listener(null);
    }
  })();
  return () => {
    watching = false;
    sub.unsubscribe();
  };
}

/** setTimeout's longest delay (~24.8 days); a longer one fires at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** How long a revoked key id is remembered: longer than any verification still in flight can take. */
const RECENT_MS = 10 * 60_000;

/**
 * Ends what a key holds open (GraphQL subscriptions) when it is revoked, on this replica whichever
 * replica took the revocation, or when it expires. A key id revoked moments ago ends a stream at
 * once: its request may have been authenticated just before the notice arrived.
 */
export function createKeyEnds(nc: NatsConnection) {
  const open = new Map<string, Set<() => void>>();
  const recent = new Map<string, number>();

  const stop = onRevocation(nc, (key) => {
    if (key === null) {
      for (const ends of [...open.values()]) for (const end of [...ends]) end();
      return;
    }
    const now = Date.now();
    for (const [id, at] of recent) {
      if (at > now - RECENT_MS) break; // insertion order is time order
      recent.delete(id);
    }
    recent.set(key.keyId, now);
    for (const end of [...(open.get(key.keyId) ?? [])]) end();
  });

  return {
    /**
     * Calls `end` once when the key is revoked or reaches `expiresAt` (ms since epoch), whichever
     * comes first; at once if it already has. Returns the function that stops watching.
     */
    watch(key: { keyId: string; expiresAt: number | null }, end: () => void): () => void {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let done = false;
      let ends = open.get(key.keyId);
      const unwatch = () => {
        done = true;
        clearTimeout(timer);
        ends!.delete(once);
        if (ends!.size === 0 && open.get(key.keyId) === ends) open.delete(key.keyId);
      };
      function once() {
        if (done) return;
        unwatch();
        end();
      }
      if (!ends) open.set(key.keyId, (ends = new Set()));
      ends.add(once);
      const arm = () => {
        const left = key.expiresAt === null ? Infinity : key.expiresAt - Date.now();
        if (left <= 0) once();
        else if (left !== Infinity) timer = setTimeout(arm, Math.min(left, MAX_DELAY_MS));
      };
      if (recent.has(key.keyId)) once();
      else arm();
      return unwatch;
    },
    close: stop,
  };
}

export type KeyEnds = ReturnType<typeof createKeyEnds>;
