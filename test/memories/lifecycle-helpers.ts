import { connect } from "nats";
import { memoryEventsOf } from "../../services/contract/events";
import { testStack } from "../harness";
import type { ApiClient } from "../api";
import { ok } from "./memory-helpers";

/** Shared by the lifecycle tests (occurred_at, expiry, retention, supersession) of test/memories and test/search. */

/** A memory as the API shows it, with its life. */
export interface LivedMemory {
  id: string;
  content: string;
  tier: string;
  parent_memory_id: string | null;
  external_id: string | null;
  created_at: string;
  updated_at: string;
  occurred_at: string;
  expires_at: string | null;
  supersedes: string | null;
  superseded_by: string | null;
  valid_to: string | null;
  [field: string]: unknown;
}

export const ms = (iso: string) => Date.parse(iso);
/** An instant `fromNow` ms ahead of this clock (the stack runs on this machine: Redis TIME agrees). */
export const inMs = (fromNow: number) => new Date(Date.now() + fromNow).toISOString();

export async function make(api: ApiClient, body: Record<string, unknown> = {}): Promise<LivedMemory> {
  return ok(api.post("/v1/memories", { content: "a memory", ...body }));
}

export async function read(api: ApiClient, id: string): Promise<LivedMemory | null> {
  const res = await api.get(`/v1/memories/${id}`);
  if (res.status === 404) return null;
  if (res.status !== 200) throw new Error(`GET /v1/memories/${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A memory event as the stream carries it. */
export interface EventSeen {
  type: string;
  memory_id: string;
  version: number;
  changed: string[];
  reason?: string;
  memory: Record<string, unknown> | null;
}

/**
 * The memory events of one tenant, as published (events.memory.* also reach core NATS subscribers, as
 * the gateway's event hub reads them), collected from `watch()` on.
 */
export async function watchEvents(tenant: string) {
  const nc = await connect({ servers: (await testStack()).natsUrl });
  const seen: EventSeen[] = [];
  nc.subscribe("events.memory.>", {
    callback: (_err, msg) => {
      for (const e of memoryEventsOf(msg.data) as unknown as (EventSeen & { tenant: string })[])
        if (e.tenant === tenant) seen.push(e);
    },
  });
  await nc.flush();
  return {
    seen,
    of: (type: string, id: string) => seen.filter((e) => e.type === type && e.memory_id === id),
    close: () => nc.close(),
  };
}
