import type { TraceIds } from "./trace-context";

/**
 * What the code that makes spans sees of tracing: a small interface, so that neither the adapters nor the kit
 * import the OpenTelemetry SDK (loaded only when tracing is on, see setup.ts). While tracing is off `tracer()` is
 * null, and the whole cost of a traced step is that check.
 */
export type SpanKind = "server" | "client" | "producer" | "consumer" | "internal";
export type SpanAttributes = Record<string, string | number | boolean>;

export interface SpanOptions {
  kind: SpanKind;
  /** The span's parent: a remote caller's ids, or a span of this process; none starts a trace. */
  parent?: TraceIds | null;
  /** Spans this one relates to without descending from them (the events a consumer's batch carries). */
  links?: TraceIds[];
  /** Tenant-free only: operation names, subjects, status codes, counts; never content, keys or tenant ids. */
  attributes?: SpanAttributes;
}

export interface TraceSpan {
  /** Its ids, for the `traceparent` of what it calls (not sampled: the SDK records nothing under it). */
  readonly ids: TraceIds;
  set(key: string, value: string | number | boolean): void;
  /** Marks the span failed, with the contract's error code (or the error's name) as its description. */
  fail(code: string): void;
  end(): void;
}

export interface Tracer {
  start(name: string, opts: SpanOptions): TraceSpan;
  /** Exports what is buffered; shutdown awaits it. */
  flush(): Promise<void>;
}

let installed: Tracer | null = null;

/** The process's tracer, or null while tracing is off. */
export const tracer = (): Tracer | null => installed;

/** Installs (or, null, removes) the tracer, with the store that carries the active span across awaits. */
export const installTracer = (t: Tracer | null, store: SpanStore | null = null): void => {
  installed = t;
  active = t ? store : null;
};

/**
 * The span the running code belongs to, carried across awaits, so that calls deep inside (a Redis function, a
 * NATS request of a store) find their parent without every signature passing it: an AsyncLocalStorage, which
 * setup.ts imports and makes only when tracing is on, so the off path loads nothing of it.
 */
export interface SpanStore {
  getStore(): TraceIds | undefined;
  run<T>(ids: TraceIds, run: () => T): T;
}

let active: SpanStore | null = null;

export const activeSpan = (): TraceIds | undefined => active?.getStore();

export const withSpan = <T>(span: TraceSpan, run: () => T): T => (active ? active.run(span.ids, run) : run());

/** Runs `step` in a span of its own, child of the active one, failed with the error's code when it throws. */
export async function traced<T>(
  t: Tracer,
  name: string,
  opts: SpanOptions,
  step: (ids: TraceIds) => Promise<T>,
): Promise<T> {
  const span = t.start(name, { parent: activeSpan(), ...opts });
  try {
    return await withSpan(span, () => step(span.ids));
  } catch (err) {
    span.fail(codeOf(err));
    throw err;
  } finally {
    span.end();
  }
}

/** An error's contract code (ServiceError) or its class name: a span's status, never its message. */
export const codeOf = (err: unknown): string =>
  (err as { code?: unknown })?.code && typeof (err as { code: unknown }).code === "string"
    ? (err as { code: string }).code
    : err instanceof Error
      ? err.name
      : "Error";
