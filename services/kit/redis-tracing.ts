import dc from "node:diagnostics_channel";

/** The channels of a TracingChannel: it has subscribers when one of them has. */
const EVENTS = ["start", "end", "asyncStart", "asyncEnd", "error"] as const;

/**
 * ioredis (6.x) runs every command, batch and connect through a diagnostics_channel TracingChannel unless the
 * channel says `hasSubscribers === false`. Bun's TracingChannel has no `hasSubscribers`, so ioredis traced every
 * command with nobody listening: each paid a redacted copy of its arguments (four regular expressions, every
 * argument turned into a string), a context object and a wrapper promise: 0.1–0.4 µs of the client's 1.5–4.8 µs
 * per command in a micro-benchmark (a search sends ~110). This gives TracingChannel the getter Node's has (true
 * when one of its channels has a subscriber), so a tracer that subscribes still sees every command.
 * Answers whether the getter was missing (and is now defined).
 */
export function defineTracingChannelSubscribers(): boolean {
  const proto = Object.getPrototypeOf(dc.tracingChannel("kit:redis-tracing")) as object | null;
  if (!proto || "hasSubscribers" in proto) return false;
  Object.defineProperty(proto, "hasSubscribers", {
    configurable: true,
    get(this: Record<string, { hasSubscribers?: boolean } | undefined>) {
      return EVENTS.some((event) => this[event]?.hasSubscribers === true);
    },
  });
  return true;
}
