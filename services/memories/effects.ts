import type { NatsConnection } from "nats";
import type { Bus } from "../kit/bus";
import type { HandlerContext } from "../kit/handler";
import { callerOf } from "../kit/handler";
import { errorFields } from "../kit/log";
import { encodeJson } from "../kit/wire";
import { memoryEventSubject, snapshotOfMemory, type MemoryEvent, type MemoryEventType } from "../contract/events";
import { createIndexWriter } from "../memory-data/index-writes";
import type { MemoryRow } from "./record";

/** One committed change of one memory. */
export type MemoryChange =
  | { type: Exclude<MemoryEventType, "deleted">; row: MemoryRow; changed?: string[] }
  | { type: "deleted"; id: string; version: number };

/** What follows every committed write: the domain events, and the search index brought up to date. */
export interface Effects {
  committed(ctx: HandlerContext, changes: MemoryChange[]): Promise<void>;
}

const PUBLISH_BATCH = 256;
const UPSERT_BATCH = 1000;
const DELETE_BATCH = 10_000;

const chunks = <X>(xs: X[], size: number): X[][] => {
  const out: X[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
};

/**
 * Events go to JetStream with msgID `<memoryId>:<version>`, so a retried publish is deduplicated.
 * The index call waits (INDEX_WAIT_MS) so a write is searchable when it returns; if search is down
 * the write still succeeds: the indexer consumes the same events and converges.
 */
export function createEffects(nc: NatsConnection, bus: Bus, now?: () => number): Effects {
  const js = nc.jetstream();
  const indexNow = createIndexWriter(bus, now);
  return {
    async committed(ctx, changes) {
      if (changes.length === 0) return;
      const caller = callerOf(ctx);
      const at = new Date().toISOString();
      const events: MemoryEvent[] = changes.map((c) =>
        c.type === "deleted"
          ? {
              type: c.type,
              tenant: caller.tenant,
              env: caller.env,
              memory_id: c.id,
              version: c.version,
              changed: [],
              memory: null,
              at,
            }
          : {
              type: c.type,
              tenant: caller.tenant,
              env: caller.env,
              memory_id: c.row.memory.id,
              version: c.row.version,
              changed: c.changed ?? [],
              memory: snapshotOfMemory(c.row.memory, c.row.version),
              at,
            },
      );

      const publish = async () => {
        for (const batch of chunks(events, PUBLISH_BATCH)) {
          await Promise.all(
            batch.map((e) =>
              js
                .publish(memoryEventSubject(e.type), encodeJson(e), { msgID: `${e.memory_id}:${e.version}` })
                .catch((err) =>
                  ctx.log.error("memory event not published", {
                    memory_id: e.memory_id,
                    version: e.version,
                    ...errorFields(err),
                  }),
                ),
            ),
          );
        }
      };

      const index = async () => {
        const upserts = events.flatMap((e) => (e.memory ? [e.memory] : []));
        const deletes = events
          .filter((e) => e.type === "deleted")
          .map((e) => ({ id: e.memory_id, version: e.version }));
        const u = chunks(upserts, UPSERT_BATCH);
        const d = chunks(deletes, DELETE_BATCH);
        for (let i = 0; i < Math.max(u.length, d.length); i++) {
          if (
            !(await indexNow(
              { upserts: u[i] ?? [], deletes: d[i] ?? [] },
              { requestId: ctx.requestId, caller },
              ctx.log,
            ))
          )
            return;
        }
      };

      await Promise.all([publish(), index()]);
    },
  };
}
