import { useQuery } from "@urql/preact";
import { useMemo, useState } from "preact/hooks";
import { messageOf } from "../../ui/errors";
import { bytes, utcDay } from "../../ui/format";
import { ErrorLine, StatusLine } from "../../ui/notice";
import { plural } from "../../ui/plural";
import { fillDays, UsageChart } from "./chart";
import { UsageReportQuery } from "./documents";

interface Counts {
  requests: number;
  errors: number;
  rateLimited: number;
}

/** A table of counts per row label (endpoint or key). */
function CountsTable({ caption, head, rows }: { caption: string; head: string; rows: (Counts & { label: string })[] }) {
  return (
    <div class="table-wrap">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{head}</th>
            <th scope="col">Requests</th>
            <th scope="col">Errors</th>
            <th scope="col">Rate-limited</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              <td>{r.requests}</td>
              <td>{r.errors}</td>
              <td>{r.rateLimited}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A range's totals as a sentence, each count with its noun in the right number. */
function totalsText(t: Counts): string {
  const limited = t.rateLimited.toLocaleString("en");
  return `${plural(t.requests, "request")}, ${plural(t.errors, "error")}, ${limited} rate-limited.`;
}

interface Storage {
  memories: number;
  bytes: number;
  limits: { memories?: number | null; bytes?: number | null };
}

/** What the environment stores against its quotas (no limit: none shown). */
function storageText(s: Storage): string {
  const of = (limit: number | null | undefined, show: (n: number) => string) => (limit ? ` of ${show(limit)}` : "");
  const count = (n: number) => n.toLocaleString("en");
  return (
    `Storage: ${plural(s.memories, "memory")}${of(s.limits.memories, count)}, ` +
    `${bytes(s.bytes)}${of(s.limits.bytes, bytes)} (content and metadata).`
  );
}

/**
 * Usage: requests, errors and rate-limited requests per day, by endpoint and by key, over a date range; what
 * the environment stores against its quotas.
 */
export function UsagePage() {
  const [from, setFrom] = useState(utcDay(-13));
  const [to, setTo] = useState(utcDay());
  const [keyId, setKeyId] = useState("");
  const variables = { from, to, keyId: keyId || null };
  const [{ data, fetching, error }] = useQuery({ query: UsageReportQuery, variables, requestPolicy: "network-only" });
  const report = data?.usage;
  const series = useMemo(() => (report ? fillDays(report.from, report.to, report.byDay) : null), [report]);
  const keys = data?.keys?.items ?? [];
  const keyName = (id: string) => {
    const k = keys.find((x) => x.id === id);
    return k ? `${k.name} (${k.prefix}…)` : id;
  };
  const today = report?.byDay.find((d) => d.day === utcDay());

  return (
    <>
      <h1>Usage</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Usage range">
        <div class="field">
          <label for="usage-from">From (UTC day)</label>
          <input id="usage-from" type="date" value={from} max={to} onChange={(e) => setFrom(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="usage-to">To (UTC day)</label>
          <input id="usage-to" type="date" value={to} min={from} onChange={(e) => setTo(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="usage-key">Key</label>
          <select id="usage-key" value={keyId} onChange={(e) => setKeyId(e.currentTarget.value)}>
            <option value="">Every key</option>
            {keys.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name} ({k.prefix}…)
              </option>
            ))}
          </select>
        </div>
      </form>
      <ErrorLine message={messageOf(error)} />
      {fetching && !report && <StatusLine text="Loading usage…" />}
      {report && series && (
        <>
          <StatusLine
            testId="usage-totals"
            text={
              `${report.from} to ${report.to}: ${totalsText(report.totals)} ` +
              `Today: ${plural(today?.requests ?? 0, "request")}.`
            }
          />
          <StatusLine testId="usage-storage" text={storageText(report.storage)} />
          <figure>
            <UsageChart series={series} />
            <figcaption>Requests, errors and rate-limited requests per UTC day.</figcaption>
          </figure>
          <CountsTable
            caption="By endpoint"
            head="Endpoint"
            rows={report.byEndpoint.map((r) => ({ ...r, label: r.endpoint }))}
          />
          <CountsTable
            caption="By key"
            head="Key"
            rows={report.byKey.map((r) => ({ ...r, label: keyName(r.keyId) }))}
          />
        </>
      )}
    </>
  );
}
