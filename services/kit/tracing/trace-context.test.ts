import { describe, expect, test } from "bun:test";
import { formatTraceparent, parseTraceparent, untracedSpan } from "./trace-context";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";

describe("traceparent", () => {
  test("reads the specification's example and writes it back", () => {
    const header = `00-${TRACE}-${SPAN}-01`;
    expect(parseTraceparent(header)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
    expect(formatTraceparent(parseTraceparent(header)!)).toBe(header);
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)!.sampled).toBe(false);
  });

  test("ignores what is malformed: a new trace starts instead", () => {
    for (const bad of [
      null,
      "",
      `00-${TRACE}-${SPAN}`,
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
      `00-${"0".repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${"0".repeat(16)}-01`,
      `ff-${TRACE}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `0-${TRACE}-${SPAN}-01`,
    ])
      expect(parseTraceparent(bad)).toBeNull();
  });

  test("reads a later version by its version-00 fields", () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-03-what-comes-later`)).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      sampled: true,
    });
  });
});

describe("ids made without the SDK", () => {
  test("continue the caller's trace with a span of their own", () => {
    const ids = untracedSpan({ traceId: TRACE, spanId: SPAN, sampled: true });
    expect(ids.traceId).toBe(TRACE);
    expect(ids.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(ids.spanId).not.toBe(SPAN);
    expect(ids.sampled).toBe(true);
  });

  test("start a new trace, not sampled, when there is no caller", () => {
    const a = untracedSpan(null);
    const b = untracedSpan(null);
    expect(a.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(a.traceId).not.toBe(b.traceId);
    expect(parseTraceparent(formatTraceparent(a))).toEqual({ traceId: a.traceId, spanId: a.spanId, sampled: false });
    // Nothing records it while tracing is off: it is this process's alone, not carried on.
    expect(a.local).toBe(true);
    expect(untracedSpan({ traceId: TRACE, spanId: SPAN, sampled: false }).local).toBeUndefined();
  });
});
