import { durableConsumer } from "../../kit/streams";
import type { JsMsg, NatsConnection } from "nats";
import { STREAMS } from "../../contract/streams";
import {
  MEMORY_EVENTS_PULL_BYTES,
  MEMORY_EVENTS_WILDCARD,
  memoryEventsOf,
  type MemoryEvent,
} from "../../contract/events";
import { errorFields, type Logger } from "../../kit/log";
import { hashTag } from "../../kit/space";
import type { NewDelivery, WebhookStore } from "../store";
import { partitionOf } from "../store/keyspace";
import { deliveryIdOf, memoryEventBody, subscribes, webhookTypeOf } from "../payload";
import { inConsumerSpan } from "../../kit/tracing/consumer-span";
import { activeSpan } from "../../kit/tracing/tracer";
import { formatTraceparent } from "../../kit/tracing/trace-context";

export const DISPATCHER_DURABLE = "webhooks-dispatcher";
/** Events dispatched at once (a message may carry many: at least one message goes). */
const BATCH = 128;
/** A replica that dies leaves its pulled events unacknowledged: another replica gets them after this. */
const ACK_WAIT_MS = 10_000;

/**
 * Turns memory events into deliveries: one durable JetStream consumer on EVENTS shared by every replica
 * (each event goes to one of them). For each event it finds the endpoints of the event's tenant and
 * environment that subscribe to its type (registered before the change, enabled) and enqueues one
 * delivery per endpoint in Redis; only then is the event acknowledged. Enqueueing is idempotent (the
 * delivery id is derived from endpoint and event), so an event handed over twice is delivered once more
 * at most, never lost.
 */
export async function startDispatcher(
  nc: NatsConnection,
  deps: { store: WebhookStore; log: Logger; enqueued: (partitions: Iterable<number>) => void; now?: () => number },
): Promise<() => Promise<void>> {
  const now = deps.now ?? Date.now;
  // Endpoints exist only from the service's first start: older events have no one to go to.
  const consumer = await durableConsumer(nc, STREAMS.EVENTS.name, {
    name: DISPATCHER_DURABLE,
    filter: MEMORY_EVENTS_WILDCARD,
    from: "new",
    ackWaitMs: ACK_WAIT_MS,
    maxAckPending: 4096,
  });
  const messages = await consumer.consume({ max_bytes: MEMORY_EVENTS_PULL_BYTES });

  const buffer: { m: JsMsg; events: MemoryEvent[] }[] = [];
  const arrived = { signal: null as (() => void) | null };
  const receiving = (async () => {
    for await (const m of messages) {
      try {
        buffer.push({ m, events: memoryEventsOf(m.data) });
      } catch {
        deps.log.warn("malformed memory event dropped", { seq: m.seq });
        m.term();
        continue;
      }
      arrived.signal?.();
    }
  })();
  let stopped = false;
  const processing = (async () => {
    while (!stopped || buffer.length > 0) {
      if (buffer.length === 0) {
        await new Promise<void>((resolve) => {
          arrived.signal = resolve;
          setTimeout(resolve, 100);
        });
        arrived.signal = null;
        continue;
      }
      let n = 1;
      let events = buffer[0]!.events.length;
      while (n < buffer.length && events + buffer[n]!.events.length <= BATCH) events += buffer[n++]!.events.length;
      const batch = buffer.splice(0, n);
      const run = () => dispatch(batch, deps.store, deps.log, now);
      deps.enqueued(await inConsumerSpan(DISPATCHER_DURABLE, batch, run));
    }
  })();

  return async () => {
    messages.stop();
    await receiving.catch(() => undefined);
    stopped = true;
    await processing.catch(() => undefined);
  };
}

/**
 * One batch: endpoints read once per space, deliveries enqueued in memory-version order, then acks. Resolves
 * the partitions it enqueued in.
 */
async function dispatch(
  received: { m: JsMsg; events: MemoryEvent[] }[],
  store: WebhookStore,
  log: Logger,
  now: () => number,
): Promise<Set<number>> {
  const events = received.flatMap((r) => r.events);
  try {
    const spaces = new Map<string, ReturnType<WebhookStore["endpoints"]["all"]>>();
    for (const e of events) {
      const space = { tenant: e.tenant, env: e.env };
      if (!spaces.has(hashTag(space))) spaces.set(hashTag(space), store.endpoints.all(space));
    }
    const deliveries: NewDelivery[] = [];
    // The dispatcher's span (inConsumerSpan), which each attempt's span descends from.
    const span = activeSpan();
    const trace = span ? { trace: formatTraceparent(span) } : {};
    for (const e of [...events].sort((a, b) => a.version - b.version)) {
      const type = webhookTypeOf(e);
      const to = (await spaces.get(hashTag({ tenant: e.tenant, env: e.env }))!).filter(
        (endpoint) => endpoint.enabled && subscribes(endpoint.events, type) && e.at >= endpoint.created_at,
      );
      // Most events go to no endpoint: their body (and its derived id) is built only for one that does.
      if (to.length === 0) continue;
      const body = memoryEventBody(e);
      const json = JSON.stringify(body);
      for (const endpoint of to) {
        deliveries.push({
          id: deliveryIdOf(endpoint.id, body.id),
          webhook_id: endpoint.id,
          tenant: e.tenant,
          env: e.env,
          event_id: body.id,
          event_type: body.type,
          memory_id: e.memory_id,
          version: e.version,
          body: json,
          manual: false,
          ...trace,
        });
      }
    }
    if (deliveries.length > 0) await store.deliveries.enqueue(deliveries, now());
    for (const { m } of received) m.ack();
    return new Set(deliveries.map((d) => partitionOf(d.webhook_id)));
  } catch (err) {
    log.warn("memory events not dispatched to webhooks, will be redelivered", {
      events: events.length,
      ...errorFields(err),
    });
    for (const { m } of received) m.nak(1000);
    return new Set();
  }
}
