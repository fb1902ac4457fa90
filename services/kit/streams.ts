import { AckPolicy, DeliverPolicy, RetentionPolicy, StorageType, type Consumer, type NatsConnection } from "nats";
/** A stream as services/contract/streams.ts declares one. */
interface StreamDef {
  name: string;
  subjects: readonly string[];
  maxAgeMs: number;
}

/** How long a process waits for a forming NATS cluster to have the peers a replicated stream needs. */
const PLACEMENT_WAIT_MS = 30_000;
/** JetStream's "no suitable peers for placement": fewer nodes up than the stream's replicas, yet. */
const NO_PEERS = 10005;

/**
 * Creates the stream if missing; idempotent, safe to call from every replica at start. A NATS cluster
 * whose nodes are still joining cannot place a replicated stream: that is retried, not fatal.
 */
export async function ensureStream(nc: NatsConnection, def: StreamDef, replicas = 1): Promise<void> {
  const deadline = Date.now() + PLACEMENT_WAIT_MS;
  for (;;) {
    try {
      return await ensureStreamOnce(nc, def, replicas);
    } catch (err) {
      const code = (err as { api_error?: { err_code?: number } }).api_error?.err_code;
      if (code !== NO_PEERS || Date.now() > deadline) throw err;
      await Bun.sleep(250);
    }
  }
}

async function ensureStreamOnce(nc: NatsConnection, def: StreamDef, replicas: number): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const config = {
    name: def.name,
    subjects: [...def.subjects],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: def.maxAgeMs * 1_000_000,
    duplicate_window: 120 * 1_000_000_000,
    num_replicas: replicas,
  };
  try {
    const info = await jsm.streams.info(def.name);
    if (info.config.subjects?.join(",") !== config.subjects.join(",") || info.config.num_replicas !== replicas) {
      await jsm.streams.update(def.name, { ...info.config, subjects: config.subjects, num_replicas: replicas });
    }
  } catch {
    try {
      await jsm.streams.add(config);
    } catch (err) {
      // Another replica may have created it between our two calls.
      await jsm.streams.info(def.name).catch(() => {
        throw err;
      });
    }
  }
}

export interface DurableSpec {
  name: string;
  filter: string;
  /** Where a new consumer starts: the whole stream, or only what arrives from now on. */
  from: "all" | "new";
  ackWaitMs: number;
  maxAckPending?: number;
}

/**
 * A durable pull consumer with explicit acks, shared by every replica of a service: created when missing; when it
 * exists (another replica, an earlier version) its position is kept and its ack settings refreshed.
 */
export async function durableConsumer(nc: NatsConnection, stream: string, spec: DurableSpec): Promise<Consumer> {
  const jsm = await nc.jetstreamManager();
  const settings = {
    ack_wait: spec.ackWaitMs * 1_000_000,
    ...(spec.maxAckPending === undefined ? {} : { max_ack_pending: spec.maxAckPending }),
  };
  await jsm.consumers
    .add(stream, {
      durable_name: spec.name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: spec.from === "new" ? DeliverPolicy.New : DeliverPolicy.All,
      filter_subject: spec.filter,
      ...settings,
    })
    .catch(() => jsm.consumers.update(stream, spec.name, settings));
  return nc.jetstream().consumers.get(stream, spec.name);
}
