import { durableConsumer } from "../kit/streams";
import type { NatsConnection } from "nats";
import { STREAMS } from "../contract/streams";
import { USAGE_SUBJECT, type UsageRow } from "../contract/usage";
import type { KeyStore } from "./store";
import { errorFields, type Logger } from "../kit/log";
import { decodeJson } from "../kit/wire";

const DURABLE = "usage-aggregator";

/**
 * Pulls usage batches from JetStream (one durable consumer shared by all replicas) and adds them to
 * the per-day counters. At-least-once: a batch is acked only after Redis took it.
 */
export async function startUsageConsumer(
  nc: NatsConnection,
  store: KeyStore,
  log: Logger,
): Promise<() => Promise<void>> {
  const consumer = await durableConsumer(nc, STREAMS.USAGE.name, {
    name: DURABLE,
    filter: USAGE_SUBJECT,
    from: "all",
    ackWaitMs: 30_000,
  });
  const messages = await consumer.consume({ max_messages: 64 });
  const loop = (async () => {
    for await (const m of messages) {
      try {
        await store.addUsage(decodeJson(m.data) as UsageRow[], new Date().toISOString());
        m.ack();
      } catch (err) {
        log.warn("usage batch failed, will be redelivered", errorFields(err));
        m.nak(1000);
      }
    }
  })();
  return async () => {
    messages.stop();
    await loop.catch(() => undefined);
  };
}
