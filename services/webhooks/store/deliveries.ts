import type { RedisClient } from "../../kit/redis-functions";
import { hashOfPairs } from "../../kit/redis-replies";
import type { DeliveryStatus, WebhookDelivery } from "../../contract/webhooks";
import { toDelivery } from "../record";
import { PARTITIONS, partitionKeys, partitionOf } from "./keyspace";
import type { WebhooksCall } from "../lua/library";

/** Deliveries kept per endpoint for its listing (older finished ones are dropped as new ones come). */
export const DELIVERIES_KEPT = 1000;
/** How long a finished delivery stays listed and retryable by hand: as long as the EVENTS stream keeps events. */
export const RETENTION_MS = 7 * 24 * 3600_000;
/** Attempts kept on a delivery (the most recent). */
export const ATTEMPTS_KEPT = 20;
const PURGE_BATCH = 500;

export interface NewDelivery {
  id: string;
  webhook_id: string;
  tenant: string;
  env: "live" | "test";
  event_id: string;
  event_type: string;
  memory_id: string | null;
  version: number | null;
  /** The exact body every attempt sends. */
  body: string;
  /** Asked for by hand (a test ping): sent even to a disabled endpoint, not retried. */
  manual: boolean;
  /** The `traceparent` of the span that enqueued it, for its attempts' spans (while tracing is on). */
  trace?: string;
}

/** A delivery claimed for one attempt. */
export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  tenant: string;
  env: "live" | "test";
  event_id: string;
  body: string;
  manual: boolean;
  /** This attempt's number, from 1. */
  attempt: number;
  /** The `traceparent` of the span that enqueued it; '' when none (tracing off, or enqueued by an older version). */
  trace: string;
  partition: number;
  claim: string;
}

export interface Attempt {
  at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  ok: boolean;
  manual: boolean;
}

export type AttemptOutcome = "succeeded" | "retry" | "failed";

const iso = (ms: number) => new Date(ms).toISOString();

/** Deliveries in their partitions (keyspace.ts): the queue, the lanes, the attempts. */
export function deliveryStore(redis: RedisClient, call: WebhooksCall) {
  return {
    /** Adds deliveries (idempotent per id); resolves how many were new. */
    async enqueue(deliveries: NewDelivery[], now: number): Promise<number> {
      const byPartition = new Map<number, NewDelivery[]>();
      for (const d of deliveries) {
        const p = partitionOf(d.webhook_id);
        const list = byPartition.get(p);
        if (list) list.push(d);
        else byPartition.set(p, [d]);
      }
      const created = await Promise.all(
        [...byPartition].map(([p, ds]) => {
          const k = partitionKeys(p);
          return call("enqueue", [k.due, k.active], [now, iso(now), DELIVERIES_KEPT, JSON.stringify(ds)]);
        }),
      );
      return created.reduce((a: number, n) => a + Number(n), 0);
    },

    /** Claims up to `most` due deliveries of a partition; `nextDue` is when the earliest one left is due. */
    async claim(
      partition: number,
      now: number,
      leaseMs: number,
      most: number,
    ): Promise<{ claimed: ClaimedDelivery[]; nextDue: number | null }> {
      const claim = crypto.randomUUID();
      const args = [now, leaseMs, most, claim];
      const [json, head] = (await call("claim", [partitionKeys(partition).due], args)) as [string, string];
      const claimed = (JSON.parse(json) as Omit<ClaimedDelivery, "partition" | "claim">[]).map((c) => ({
        ...c,
        partition,
        claim,
      }));
      return { claimed, nextDue: head === "" ? null : Number(head) };
    },

    /**
     * Records an attempt's outcome; null when the claim no longer holds (nothing changed). `due` is when what
     * it made due in the partition is: the retry, or now when it handed the memory's lane to its next event.
     */
    async settle(
      c: ClaimedDelivery,
      attempt: Attempt,
      outcome: AttemptOutcome,
      retryAt: number | null,
      now: number,
    ): Promise<{ due: number | null } | null> {
      const k = partitionKeys(c.partition);
      const args = [
        c.id,
        c.claim,
        now,
        iso(now),
        JSON.stringify(attempt),
        outcome,
        retryAt ?? "",
        RETENTION_MS,
        ATTEMPTS_KEPT,
      ];
      const settled = Number(await call("settle", [k.due, k.active], args));
      if (settled === 0) return null;
      return { due: settled === 2 ? now : outcome === "retry" ? retryAt : null };
    },

    /** Makes a delivery due now (NOT_FOUND unless it is the endpoint's). */
    async retry(webhookId: string, deliveryId: string, now: number): Promise<WebhookDelivery> {
      const k = partitionKeys(partitionOf(webhookId));
      const json = (await call("retry", [k.due], [deliveryId, webhookId, now, iso(now)])) as string;
      return toDelivery(JSON.parse(json) as Record<string, string>);
    },

    async get(webhookId: string, deliveryId: string): Promise<WebhookDelivery | null> {
      const h = hashOfPairs(
        (await redis.call("HGETALL", partitionKeys(partitionOf(webhookId)).record(deliveryId))) as string[],
      );
      return h.webhook_id === webhookId ? toDelivery(h) : null;
    },

    async page(webhookId: string, offset: number, limit: number, status?: DeliveryStatus) {
      const log = partitionKeys(partitionOf(webhookId)).log(webhookId);
      const [total, ...items] = (await call("deliveries", [log], [offset, limit, status ?? ""])) as [
        number,
        ...string[],
      ];
      return { items: items.map((j) => toDelivery(JSON.parse(j) as Record<string, string>)), total };
    },

    /** Removes every delivery of an endpoint (it was deleted), a batch at a time. */
    async purge(webhookId: string): Promise<void> {
      const k = partitionKeys(partitionOf(webhookId));
      while (Number(await call("purge", [k.due, k.active], [webhookId, PURGE_BATCH])) > 0);
    },

    partitions: Array.from({ length: PARTITIONS }, (_, p) => p),
  };
}

export type DeliveryStore = ReturnType<typeof deliveryStore>;
