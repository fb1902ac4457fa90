/**
 * JetStream streams and the subjects they hold; every process that uses one ensures it exists.
 * Subjects must never overlap an operation subject: a stream acks a request before any service could.
 */
export const STREAMS = {
  EVENTS: { name: "EVENTS", subjects: ["events.>"], maxAgeMs: 7 * 24 * 3600_000 },
  USAGE: { name: "USAGE", subjects: ["usage.batch"], maxAgeMs: 24 * 3600_000 },
} as const;
