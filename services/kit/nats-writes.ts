import type { NatsConnection } from "nats";

interface ProtocolWithFlush {
  flushPending: () => void;
}

/**
 * nats.js writes its outbound buffer to the socket at the end of every microtask checkpoint, so a
 * process answering many requests makes one `write()` per message: under load ~15% of a service's
 * CPU. Deferring that flush to the end of the event-loop turn (`setImmediate`) sends everything
 * published while handling one batch of socket events in one write; nothing waits longer than the
 * turn. `flushPending` is nats.js' own internal (2.x); when it is not there this changes nothing
 * and answers false (the caller logs it), so an upgrade cannot break publishing.
 */
export function coalesceWritesPerTurn(nc: NatsConnection): boolean {
  const protocol = (nc as unknown as { protocol?: Partial<ProtocolWithFlush> }).protocol;
  if (!protocol || typeof protocol.flushPending !== "function") return false;
  const flushNow = protocol.flushPending.bind(protocol);
  let scheduled = false;
  protocol.flushPending = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      flushNow();
    });
  };
  return true;
}
