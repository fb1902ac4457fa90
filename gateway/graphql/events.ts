import type { NatsConnection, Subscription } from "nats";
import { Repeater, type RepeaterBuffer } from "graphql-yoga";
import {
  MEMORY_EVENTS_WILDCARD,
  memoryEventsOf,
  type MemoryEvent,
  type MemoryEventType,
} from "../../services/contract/events";
import type { Caller, Scope } from "../../services/contract/op";
import { errorFields, type Logger } from "../../services/kit/log";
import type { Identity } from "../http/auth/identity";
import { createKeyEnds, type Recheck } from "../http/auth/revocations";
import { MEMORY_LINK_FIELDS } from "../../services/contract/memories";

export interface EventFilter {
  types?: MemoryEventType[] | null;
  memoryIds?: string[] | null;
}

type Listener = (event: MemoryEvent) => void;

/**
 * Whether a browser token's caller may see a memory now: the memories service decides (its restriction),
 * so a restricted stream asks it for each memory an event names.
 */
export type CanSee = (caller: Caller, memoryId: string) => Promise<boolean>;

/**
 * The event as a restricted caller may see it: a field naming a memory it cannot see reads null (as the
 * memories service answers it), and an update that changed only such fields is none at all (null: dropped).
 */
async function maskedEvent(caller: Caller, canSee: CanSee, e: MemoryEvent): Promise<MemoryEvent | null> {
  if (!e.memory) return e;
  const memory = { ...e.memory };
  // The links are asked about at once: one round trip, however many there are.
  const seen = await Promise.all(
    MEMORY_LINK_FIELDS.map(([field]) => {
      const id = memory[field];
      return !id || canSee(caller, id).catch(() => false);
    }),
  );
  const hidden = new Set<string>();
  MEMORY_LINK_FIELDS.forEach(([field, along], i) => {
    if (seen[i]) return;
    for (const f of [field, ...along]) {
      memory[f] = null;
      hidden.add(f);
    }
  });
  if (hidden.size === 0) return e;
  if (e.type === "updated" && e.changed.length > 0 && e.changed.every((f) => hidden.has(f))) return null;
  return { ...e, memory };
}

/**
 * The events of a restricted caller that it may see, in order: a memory's events while it is inside, and
 * its deletion when it was inside at its last event seen here. No event names a memory outside.
 */
function restrictedFilter(caller: Caller, canSee: CanSee, push: (e: MemoryEvent) => void): Listener {
  const inside = new Set<string>();
  let last: Promise<unknown> = Promise.resolve();
  return (e) => {
    last = last.then(async () => {
      if (e.type === "deleted") {
        if (inside.delete(e.memory_id)) push(e);
        return;
      }
      const seen = await canSee(caller, e.memory_id).catch(() => false);
      if (seen) inside.add(e.memory_id);
      else inside.delete(e.memory_id);
      const masked = seen ? await maskedEvent(caller, canSee, e) : null;
      if (masked) push(masked);
    });
  };
}

/** Events a slow SSE client may fall behind by before the oldest are dropped (its memory stays bounded). */
const CLIENT_BUFFER = 1000;

/** A sliding buffer that can be emptied: a stream whose key ends delivers nothing it had queued. */
class ClearableBuffer<T> implements RepeaterBuffer<T> {
  private queue: T[] = [];
  readonly full = false;
  constructor(private readonly capacity: number) {}
  get empty() {
    return this.queue.length === 0;
  }
  add(value: T) {
    if (this.queue.length >= this.capacity) this.queue.shift();
    this.queue.push(value);
  }
  remove(): T {
    if (this.queue.length === 0) throw new Error("Buffer empty");
    return this.queue.shift()!;
  }
  clear() {
    this.queue.length = 0;
  }
}

/**
 * One core-NATS subscription to `events.memory.>` per gateway, shared by every open GraphQL
 * subscription and dispatched by tenant+environment, so a client only ever sees its own space.
 * Subscribed while at least one client listens. Streams end when the gateway starts shutting down,
 * and when their key is revoked (on any replica), expires, or is changed so that it may no longer
 * read them (checked again with `recheck`).
 */
export function createEventHub(
  nc: NatsConnection,
  log: Logger,
  isStopping: () => boolean,
  recheck: Recheck,
  canSee: CanSee = async () => true,
) {
  const keyEnds = createKeyEnds(nc, recheck);
  const listeners = new Map<string, Set<Listener>>();
  let sub: Subscription | null = null;
  const spaceKey = (tenant: string, env: string) => `${tenant}\u0000${env}`;

  const dispatch = (data: Uint8Array) => {
    let events: MemoryEvent[];
    try {
      events = memoryEventsOf(data);
    } catch {
      log.warn("undecodable memory event dropped");
      return;
    }
    for (const event of events) {
      const set = listeners.get(spaceKey(event.tenant, event.env));
      if (set) for (const l of set) l(event);
    }
  };

  function listen(caller: Caller, listener: Listener): () => void {
    const key = spaceKey(caller.tenant, caller.env);
    let set = listeners.get(key);
    if (!set) listeners.set(key, (set = new Set()));
    set.add(listener);
    sub ??= nc.subscribe(MEMORY_EVENTS_WILDCARD, {
      callback: (err, msg) => (err ? log.warn("event subscription error", errorFields(err)) : dispatch(msg.data)),
    });
    return () => {
      set.delete(listener);
      if (set.size === 0) listeners.delete(key);
      if (listeners.size === 0 && sub) {
        sub.unsubscribe();
        sub = null;
      }
    };
  }

  return {
    /**
     * The caller's events matching `filter`, as an async iterable that stops when the client goes, or
     * when the key ends or no longer holds `scope`.
     */
    stream(identity: Identity, filter: EventFilter, scope: Scope): AsyncIterable<MemoryEvent> {
      const types = filter.types?.length ? new Set(filter.types) : null;
      const ids = filter.memoryIds?.length ? new Set(filter.memoryIds) : null;
      const buffer = new ClearableBuffer<MemoryEvent>(CLIENT_BUFFER);
      return new Repeater<MemoryEvent>(async (push, stop) => {
        const wanted: Listener = (e) => {
          if ((!types || types.has(e.type)) && (!ids || ids.has(e.memory_id))) void push(e);
        };
        const { caller, hash, expiresAt } = identity;
        const off = listen(caller, caller.token?.restrict ? restrictedFilter(caller, canSee, wanted) : wanted);
        const held = { keyId: caller.keyId, hash, expiresAt, scope, token: caller.token !== undefined };
        const unwatchKey = keyEnds.watch(held, () => {
          buffer.clear();
          stop();
        });
        const watch = setInterval(() => isStopping() && stop(), 500);
        await stop;
        clearInterval(watch);
        unwatchKey();
        off();
      }, buffer);
    },
    /** Open subscriptions, per tenant+environment (tests, metrics). */
    listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
}

export type EventHub = ReturnType<typeof createEventHub>;
