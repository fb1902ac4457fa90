import type { JetStreamClient } from "nats";
import type { Bus } from "../kit/bus";
import { requireCaller, type HandlerContext } from "../kit/handler";
import { errorFields } from "../kit/log";
import { chunksOf } from "../kit/chunks";
import {
  MEMORY_EVENTS_MESSAGE_CHARS,
  memoryEventSubject,
  type DeleteReason,
  type MemoryEvent,
  type MemoryEventType,
  type MemorySnapshot,
} from "../contract/events";
import { createIndexWriter } from "./index-writes";
import { traceHeaders } from "../kit/wire";
import { traced, tracer } from "../kit/tracing/tracer";
import type { TraceIds } from "../kit/tracing/trace-context";

/** One committed change of one memory: its snapshot after the change, or its deletion at a version. */
export type MemoryChange =
  | { type: Exclude<MemoryEventType, "deleted">; memory: MemorySnapshot; changed?: string[] }
  | { type: "deleted"; id: string; version: number; reason: DeleteReason };

/**
 * What follows every committed write of memories or their links (memories and tags services alike):
 * the domain events, and the search index brought up to date.
 */
export interface ChangePublisher {
  committed(ctx: HandlerContext, changes: MemoryChange[]): Promise<void>;
}

/** Messages published at once. */
const PUBLISH_BATCH = 256;
const UPSERT_BATCH = 1000;
const DELETE_BATCH = 10_000;

/**
 * One publish waits this long for the stream's acknowledgement, then goes again (the msgID makes a second copy a
 * no-op), for at most PUBLISH_BUDGET_MS in all: a stream whose leader died answers again once a new one is elected
 * (within a few seconds), and the write still answers within the gateway's timeout.
 */
const PUBLISH_ATTEMPT_MS = 1000;
const PUBLISH_BUDGET_MS = 3000;
const PUBLISH_PAUSE_MS = 100;

async function publishPatiently(
  js: JetStreamClient,
  subject: string,
  data: Uint8Array,
  msgID: string,
  trace: TraceIds | null | undefined,
) {
  const started = Date.now();
  const headers = trace && !trace.local ? { headers: traceHeaders(trace) } : {};
  for (;;) {
    const left = PUBLISH_BUDGET_MS - (Date.now() - started);
    try {
      const timeout = Math.max(1, Math.min(PUBLISH_ATTEMPT_MS, left));
      return await js.publish(subject, data, { msgID, timeout, ...headers });
    } catch (err) {
      if (Date.now() - started + PUBLISH_PAUSE_MS >= PUBLISH_BUDGET_MS) throw err;
      await Bun.sleep(PUBLISH_PAUSE_MS);
    }
  }
}

interface EventMessage {
  type: MemoryEventType;
  data: Uint8Array;
  msgID: string;
}

/**
 * One message, carrying the write's span in its headers (a producer span of its own while tracing is on), which
 * the indexer's and the webhooks dispatcher's spans link to.
 */
function publishEvent(js: JetStreamClient, msg: EventMessage, trace: TraceIds | null | undefined) {
  const subject = memoryEventSubject(msg.type);
  const t = tracer();
  if (t === null) return publishPatiently(js, subject, msg.data, msg.msgID, trace);
  const attributes = { "messaging.system": "nats", "messaging.destination.name": subject };
  return traced(t, `publish ${subject}`, { kind: "producer", attributes }, (ids) =>
    publishPatiently(js, subject, msg.data, msg.msgID, ids),
  );
}

const encoder = new TextEncoder();

/**
 * The messages that carry a write's events, in the write's order: a run of events of one type goes as one JSON
 * array of at most MEMORY_EVENTS_MESSAGE_CHARS characters (an event alone as itself; a character is at most 3 bytes,
 * so a message stays under NATS's default 1 MiB payload). A message's msgID names its first event and
 * how many it carries (`<memoryId>:<version>`, or `…+<n>` for an array), so a retried write's copy is deduplicated.
 */
export function eventMessages(events: MemoryEvent[]): EventMessage[] {
  const messages: EventMessage[] = [];
  let run: { type: MemoryEventType; first: MemoryEvent; parts: string[]; chars: number } | null = null;
  const flush = () => {
    if (!run) return;
    const { type, first, parts } = run;
    const id = `${first.memory_id}:${first.version}`;
    messages.push(
      parts.length === 1
        ? { type, data: encoder.encode(parts[0]), msgID: id }
        : { type, data: encoder.encode(`[${parts.join(",")}]`), msgID: `${id}+${parts.length}` },
    );
    run = null;
  };
  for (const e of events) {
    const json = JSON.stringify(e);
    if (run && (run.type !== e.type || run.chars + json.length + 1 > MEMORY_EVENTS_MESSAGE_CHARS)) flush();
    run ??= { type: e.type, first: e, parts: [], chars: 2 };
    run.parts.push(json);
    run.chars += json.length + 1;
  }
  flush();
  return messages;
}

/**
 * Events go to JetStream as `eventMessages`, so a retried publish is deduplicated.
 * The index call waits (indexWaitMs) so a write is searchable when it returns; if search is down
 * the write still succeeds: the indexer consumes the same events and converges. Neither failure
 * undoes the committed write: it is logged.
 */
export function createChangePublisher(js: JetStreamClient, bus: Bus, now?: () => number): ChangePublisher {
  const indexNow = createIndexWriter(bus, now);
  return {
    async committed(ctx, changes) {
      if (changes.length === 0) return;
      const caller = requireCaller(ctx);
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
              reason: c.reason,
              at,
            }
          : {
              type: c.type,
              tenant: caller.tenant,
              env: caller.env,
              memory_id: c.memory.id,
              version: c.memory.version,
              changed: c.changed ?? [],
              memory: c.memory,
              at,
            },
      );

      const publish = async () => {
        for (const batch of chunksOf(eventMessages(events), PUBLISH_BATCH)) {
          await Promise.all(
            batch.map((msg) =>
              publishEvent(js, msg, ctx.trace).catch((err) =>
                ctx.log.error("memory events not published", { msg_id: msg.msgID, ...errorFields(err) }),
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
        const u = chunksOf(upserts, UPSERT_BATCH);
        const d = chunksOf(deletes, DELETE_BATCH);
        for (let i = 0; i < Math.max(u.length, d.length); i++) {
          if (
            !(await indexNow(
              { upserts: u[i] ?? [], deletes: d[i] ?? [] },
              { requestId: ctx.requestId, caller, trace: ctx.trace },
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
