import { RetentionPolicy, StorageType, type NatsConnection } from "nats";
import type { STREAMS } from "../contract/streams";

type StreamDef = (typeof STREAMS)[keyof typeof STREAMS];

/** Creates the stream if missing; idempotent, safe to call from every replica at start. */
export async function ensureStream(nc: NatsConnection, def: StreamDef, replicas = 1): Promise<void> {
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
