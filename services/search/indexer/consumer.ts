import { durableConsumer } from "../../kit/streams";
import type { JsMsg, NatsConnection } from "nats";
import { STREAMS } from "../../contract/streams";
import {
  MEMORY_EVENTS_PULL_BYTES,
  MEMORY_EVENTS_WILDCARD,
  memoryEventsOf,
  type MemoryEvent,
} from "../../contract/events";
import { INDEX_WAIT_MS } from "../../contract/search-index";
import { errorFields, type Logger } from "../../kit/log";
import type { Space } from "../../kit/space";
import type { Apply, Changes } from "./apply";
import { inConsumerSpan } from "../../kit/tracing/consumer-span";

export const INDEXER_DURABLE = "search-indexer";
/** Events applied at once (a message may carry many: at least one message goes). */
const BATCH = 128;
/**
 * The write that published an event also called `search.index` and waited up to INDEX_WAIT_MS: an
 * event younger than that is most likely being indexed right now by its own write. Waiting until it
 * is older makes the event a cheap no-op (its version is already there) instead of a second
 * embedding that competes with the writes; after an outage the backlog is old and goes at once.
 */
const GRACE_MS = INDEX_WAIT_MS + 500;
const IDLE_POLL_MS = 100;
/**
 * A replica that dies (kill -9) leaves its pulled messages unacked: they go to another replica
 * after ACK_WAIT. Short, so a crash delays convergence by seconds; messages held longer (grace,
 * a backlog being embedded) are kept alive with `working()` every WORKING_EVERY_MS.
 */
const ACK_WAIT_MS = 15_000;
const WORKING_EVERY_MS = 5_000;

/** A message pulled, with the events it carries. */
interface Received {
  m: JsMsg;
  events: MemoryEvent[];
}

const ageMs = (m: JsMsg) => Date.now() - m.info.timestampNanos / 1e6;

/**
 * The event-driven indexer: one durable JetStream consumer shared by every search replica, so the
 * index converges after any outage or missed index call. At-least-once: a message is acked only
 * after its change is in Redis; applying is idempotent (versions, tombstones), so redelivery is harmless.
 */
export async function startIndexer(
  nc: NatsConnection,
  apply: Apply,
  log: Logger,
  opts: { graceMs?: number } = {},
): Promise<() => Promise<void>> {
  const grace = opts.graceMs ?? GRACE_MS;
  const consumer = await durableConsumer(nc, STREAMS.EVENTS.name, {
    name: INDEXER_DURABLE,
    filter: MEMORY_EVENTS_WILDCARD,
    from: "all",
    ackWaitMs: ACK_WAIT_MS,
    maxAckPending: 1024,
  });
  const messages = await consumer.consume({ max_bytes: MEMORY_EVENTS_PULL_BYTES });

  // Messages arrive in stream order, i.e. oldest first: the buffer is a queue by age.
  const buffer: Received[] = [];
  let stopped = false;
  const receiving = (async () => {
    for await (const m of messages) {
      try {
        buffer.push({ m, events: memoryEventsOf(m.data) });
      } catch {
        log.warn("malformed memory event dropped", { seq: m.seq });
        m.term();
      }
    }
  })();

  let lastWorking = Date.now();
  const processing = (async () => {
    while (!stopped || buffer.length > 0) {
      if (Date.now() - lastWorking > WORKING_EVERY_MS) {
        for (const { m } of buffer) m.working();
        lastWorking = Date.now();
      }
      const head = buffer[0];
      const wait = head ? grace - ageMs(head.m) : IDLE_POLL_MS;
      if (wait > 0 && !stopped) {
        await Bun.sleep(Math.min(wait, IDLE_POLL_MS));
        continue;
      }
      let n = 0;
      let events = 0;
      while (n < buffer.length && (n === 0 || events + buffer[n]!.events.length <= BATCH)) {
        if (!stopped && ageMs(buffer[n]!.m) < grace) break;
        events += buffer[n++]!.events.length;
      }
      const batch = buffer.splice(0, n);
      await inConsumerSpan(INDEXER_DURABLE, batch, () => applyBatch(batch, apply, log));
    }
  })();

  return async () => {
    stopped = true;
    messages.stop();
    await receiving.catch(() => undefined);
    // What is buffered but not applied is simply redelivered to whoever consumes next.
    for (const { m } of buffer.splice(0)) m.nak();
    await processing.catch(() => undefined);
  };
}

/** Groups a batch by tenant space and applies each group; acks what was applied, naks the rest. */
async function applyBatch(received: Received[], apply: Apply, log: Logger): Promise<void> {
  const groups = new Map<string, { space: Space; changes: Changes; msgs: Set<JsMsg> }>();
  for (const { m, events } of received) {
    for (const event of events) {
      const key = `${event.tenant}:${event.env}`;
      let g = groups.get(key);
      if (!g)
        groups.set(
          key,
          (g = {
            space: { tenant: event.tenant, env: event.env },
            changes: { upserts: [], deletes: [] },
            msgs: new Set(),
          }),
        );
      if (event.type === "deleted" || !event.memory)
        g.changes.deletes.push({ id: event.memory_id, version: event.version });
      else g.changes.upserts.push(event.memory);
      g.msgs.add(m);
    }
  }
  // A message is acked once every group it fed is applied, naked if any failed.
  const failed = new Set<JsMsg>();
  await Promise.all(
    [...groups.values()].map(async (g) => {
      try {
        await apply(g.space, g.changes, { lane: "background" });
      } catch (err) {
        log.warn("memory events not applied, will be redelivered", {
          tenant: g.space.tenant,
          events: g.changes.upserts.length + g.changes.deletes.length,
          ...errorFields(err),
        });
        for (const m of g.msgs) failed.add(m);
      }
    }),
  );
  for (const { m } of received) {
    if (failed.has(m)) m.nak(1000);
    else m.ack();
  }
}
