import type { Sample } from "./fault-recorder";

/** What a fault test reports: summaries of the recorded requests, printed as figure lines. */

export const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

export interface Summary {
  requests: number;
  failed: number;
  byStatus: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
  rps: number;
}

export function summarize(samples: Sample[]): Summary {
  const lat = samples.map((s) => s.end - s.start);
  const byStatus: Record<string, number> = {};
  for (const s of samples) byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
  const span = samples.length ? Math.max(...samples.map((s) => s.end)) - Math.min(...samples.map((s) => s.start)) : 0;
  return {
    requests: samples.length,
    failed: samples.filter((s) => s.status !== 200).length,
    byStatus,
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    max: lat.length ? Math.max(...lat) : NaN,
    rps: span > 0 ? (samples.length * 1000) / span : 0,
  };
}

export const fmtSummary = (s: Summary) =>
  `${s.requests} requests, ${s.failed} failed ${JSON.stringify(s.byStatus)}, ${s.rps.toFixed(0)} req/s, ` +
  `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;

/** Every figure line starts with the test's tag, so `grep '\[fault' ` collects them for docs/operations.md. */
export const figure = (tag: string, line: string) => console.log(`[fault ${tag}] ${line}`);
