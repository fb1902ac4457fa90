import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export interface DaySeries {
  /** UTC days, `YYYY-MM-DD`, ascending. */
  days: string[];
  requests: number[];
  errors: number[];
  rateLimited: number[];
}

/** Every day from `from` to `to` (inclusive), with zeros where the report has none. */
export function fillDays(
  from: string,
  to: string,
  rows: { day: string; requests: number; errors: number; rateLimited: number }[],
): DaySeries {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: DaySeries = { days: [], requests: [], errors: [], rateLimited: [] };
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    const row = byDay.get(day);
    out.days.push(day);
    out.requests.push(row?.requests ?? 0);
    out.errors.push(row?.errors ?? 0);
    out.rateLimited.push(row?.rateLimited ?? 0);
  }
  return out;
}

/** Requests, errors and rate-limited requests per day as lines, drawn by uPlot on a canvas. */
export function UsageChart({ series, width = 760 }: { series: DaySeries; width?: number }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const xs = series.days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width,
        height: 280,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        series: [
          { label: "Day", value: "{YYYY}-{MM}-{DD}" },
          { label: "Requests", stroke: "#0b57d0", width: 2, points: { show: true } },
          { label: "Errors", stroke: "#b3261e", width: 2, points: { show: true } },
          { label: "Rate-limited", stroke: "#8a5a00", width: 2, dash: [6, 4], points: { show: true } },
        ],
        axes: [{}, { label: "Requests" }],
      },
      [xs, series.requests, series.errors, series.rateLimited],
      host.current,
    );
    return () => plot.destroy();
  }, [series, width]);
  return <div ref={host} data-testid="usage-chart" />;
}
