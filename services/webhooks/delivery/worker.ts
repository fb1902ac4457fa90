import type { Logger } from "../../kit/log";
import { errorFields } from "../../kit/log";
import { signingSecrets } from "../record";
import { nextRetryAt } from "../schedule";
import { signedHeaders } from "../signature";
import type { Attempt, ClaimedDelivery, AttemptOutcome, WebhookStore } from "../store";
import type { Send } from "./sender";
import { inAttemptSpan } from "./attempt-span";

export interface WorkerDeps {
  store: WebhookStore;
  send: Send;
  /** Waits before each retry (schedule.ts). */
  schedule: readonly number[];
  disableAfterMs: number;
  /** Attempts running at once in this replica. */
  concurrency: number;
  /** How long a claimed delivery is this replica's: past it, another replica may attempt it again. */
  leaseMs: number;
  log: Logger;
  now?: () => number;
  random?: () => number;
}

export interface DeliveryWorker {
  /** Look for due work now: something was just enqueued here, in these partitions (default: any). */
  wake(partitions?: Iterable<number>): void;
  /** Claims nothing more and waits for the attempts running. */
  stop(): Promise<void>;
}

/**
 * With nothing due, the schedules are polled this often (another replica may enqueue while it is saturated, or
 * stop with claims whose leases end), backing off by doubling to IDLE_POLL_MAX_MS while passes find nothing:
 * at a fixed 500 ms an idle replica polls its 16 partitions 32 times a second. Its own enqueues, and what its
 * settles make due, set its next claim instead.
 */
export const IDLE_POLL_MS = 500;
export const IDLE_POLL_MAX_MS = 4000;
const CLAIM_BATCH = 32;

/**
 * Every replica runs one worker: it claims due deliveries from the 16 partitions' schedules (atomically,
 * so replicas share the work without coordinating), attempts each one, and settles it: succeeded, a retry
 * at the next step of the schedule (with jitter), or failed. It sleeps until the earliest due delivery,
 * at most the idle poll (IDLE_POLL_MS, backing off), and wakes at once when this replica enqueues something or
 * an attempt ends.
 */
export function startDeliveryWorker(deps: WorkerDeps): DeliveryWorker {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const { store, log } = deps;
  const partitions = store.deliveries.partitions;
  let stopped = false;
  let inFlight = 0;
  const running = new Set<Promise<void>>();
  /**
   * When each partition next has a delivery due, as far as this replica knows: its last claim said so, or it
   * is polled again after `idlePoll` (other replicas enqueue too). 0 = claim at once.
   */
  const dueAt = partitions.map(() => 0);
  /**
   * The earliest delivery this replica's settles made due in each partition (a retry, or a memory's next event
   * once its lane is free) and no claim has taken since: a claim's `nextDue` may predate the settle, so it is
   * kept apart from `dueAt` and cleared only by a claim made after it is due.
   */
  const settledDue = partitions.map(() => Infinity);
  let idlePoll = IDLE_POLL_MS;
  let woken = false;
  let wakeUp: (() => void) | null = null;
  const signal = () => {
    woken = true;
    const w = wakeUp;
    wakeUp = null;
    w?.();
  };
  const wake = (enqueued: Iterable<number> = partitions) => {
    for (const p of enqueued) dueAt[p] = 0;
    idlePoll = IDLE_POLL_MS;
    signal();
  };
  /** Sleeps `ms`, or not at all when signalled since the loop's last pass began. */
  const sleep = (ms: number) =>
    woken
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            wakeUp = null;
            resolve();
          }, ms);
          wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });

  const settle = async (c: ClaimedDelivery, attempt: Attempt, outcome: AttemptOutcome, retryAt: number | null) => {
    const settled = await store.deliveries.settle(c, attempt, outcome, retryAt, now());
    if (settled === null)
      log.warn("webhook attempt outlived its lease; another replica took the delivery over", { delivery: c.id });
    else if (settled.due !== null) settledDue[c.partition] = Math.min(settledDue[c.partition]!, settled.due);
  };

  const attempt = async (c: ClaimedDelivery) => {
    const space = { tenant: c.tenant, env: c.env };
    const endpoint = await store.endpoints.get(space, c.webhook_id);
    if (!endpoint) return store.deliveries.purge(c.webhook_id); // deleted: its deliveries go with it
    const at = now();
    const record = (r: { status_code: number | null; latency_ms: number; error: string | null }): Attempt => ({
      at: new Date(at).toISOString(),
      status_code: r.status_code,
      latency_ms: r.latency_ms,
      error: r.error,
      ok: r.error === null,
      manual: c.manual,
    });
    if (!endpoint.enabled && !c.manual)
      return settle(c, record({ status_code: null, latency_ms: 0, error: "endpoint disabled" }), "failed", null);
    const headers = signedHeaders(signingSecrets(endpoint, at), c.event_id, at, c.body);
    const result = await inAttemptSpan(c, () => deps.send(endpoint.url, headers, c.body));
    const retryAt = result.ok || c.manual ? null : nextRetryAt(deps.schedule, c.attempt, now(), random());
    const outcome: AttemptOutcome = result.ok ? "succeeded" : retryAt !== null ? "retry" : "failed";
    await settle(c, record(result), outcome, retryAt);
    if (result.ok && endpoint.failing_since === null) return;
    const disabled = await store.endpoints.health(space, endpoint.id, result.ok, now(), deps.disableAfterMs);
    if (disabled)
      log.warn("webhook endpoint disabled: every attempt failed for the threshold", {
        tenant: c.tenant,
        webhook: endpoint.id,
        failing_since: endpoint.failing_since,
      });
  };

  const start = (c: ClaimedDelivery) => {
    inFlight++;
    const p = attempt(c)
      .catch((err) => log.warn("webhook attempt not settled; it is retried when its lease ends", errorFields(err)))
      .finally(() => {
        inFlight--;
        running.delete(p);
        signal();
      });
    running.add(p);
  };

  const loop = (async () => {
    while (!stopped) {
      woken = false;
      let claimedAny = false;
      try {
        for (const p of partitions) {
          const at = now();
          if (inFlight >= deps.concurrency || stopped) break;
          if (Math.min(dueAt[p]!, settledDue[p]!) > at) continue;
          if (settledDue[p]! <= at) settledDue[p] = Infinity;
          const most = Math.min(CLAIM_BATCH, deps.concurrency - inFlight);
          const { claimed, nextDue } = await store.deliveries.claim(p, at, deps.leaseMs, most);
          for (const c of claimed) start(c);
          if (claimed.length > 0) claimedAny = true;
          // A full claim may have left due deliveries behind: come back at once.
          dueAt[p] = claimed.length === most ? at : Math.min(nextDue ?? Infinity, at + idlePoll);
        }
        idlePoll = claimedAny ? IDLE_POLL_MS : Math.min(IDLE_POLL_MAX_MS, 2 * idlePoll);
      } catch (err) {
        log.warn("webhook schedules unreachable; trying again", errorFields(err));
        await sleep(1000);
        continue;
      }
      if (stopped) break;
      // At full capacity an ending attempt signals; otherwise sleep until the earliest partition is due.
      const wait = inFlight >= deps.concurrency ? IDLE_POLL_MS : Math.min(...dueAt, ...settledDue) - now();
      if (wait > 0) await sleep(wait);
    }
  })();

  return {
    wake,
    async stop() {
      stopped = true;
      wake();
      await loop;
      await Promise.all(running);
    },
  };
}
