import { progressBar } from "../services/search/cli/progress";
import { gatewayFetch, OperatorError, operatorArgs, runOperatorCommand, stackTarget } from "../services/kit/operator";
import type { ImportReport } from "../services/contract/portability";

/**
 * Export and import over the REST API, with a progress bar on stderr:
 *   npm run export -- --out data.ndjson [--cursor <c>]    (or `npm run -s export > data.ndjson`: -s keeps npm's
 *   npm run import -- data.ndjson                          own banner out of stdout)
 * MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY (a key with scope `admin`) say where and as whom; unset, the
 * gateway of the stack `npm start` runs and its admin key (tenant `default`, live; said in one line on stderr).
 * An export cut short is resumed with the cursor of its last `{"type":"cursor"}` line; an
 * import is resumed by running it again (lines already in are reported as `existing`).
 */
const usage = "usage: npm run export -- --out file.ndjson [--cursor <c>] | npm run import -- file.ndjson";
const { positionals, values } = operatorArgs(
  {
    allowPositionals: true,
    options: { cursor: { type: "string" }, out: { type: "string" }, "part-bytes": { type: "string" } },
  },
  usage,
);
const [command, path] = positionals;
if (command !== "export" && !(command === "import" && path)) {
  process.stderr.write(`${usage}\n`);
  process.exit(1);
}
/** A POST holds at most this much of the file: the server caps one body (64 MiB), and a part is a resumable unit. */
const PART_BYTES = Number(values["part-bytes"] ?? 16 * 1024 * 1024);

function fail(message: string): never {
  throw new OperatorError(message);
}

let baseUrl = "";
let key = "";
const headers = () => ({ Authorization: `Bearer ${key}` });

async function refusal(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { error: { code: string; message: string } };
    const which = process.env.MEMORY_SERVICE_API_KEY ? "the key in" : "set";
    const hint = res.status === 401 || res.status === 403 ? ` (${which} MEMORY_SERVICE_API_KEY: scope admin)` : "";
    return `${res.status} ${body.error.code}: ${body.error.message}${hint}`;
  } catch {
    return `${res.status} ${text.slice(0, 200)}`;
  }
}

async function exportAll(): Promise<void> {
  const count = await gatewayFetch(`${baseUrl}/v1/memories?limit=1`, { headers: headers() });
  const total = count.ok ? ((await count.json()) as { meta: { total: number } }).meta.total : 0;
  const query = values.cursor ? `?cursor=${encodeURIComponent(values.cursor)}` : "";
  const res = await gatewayFetch(`${baseUrl}/v1/export${query}`, { headers: headers() });
  if (!res.ok || !res.body) fail(`export: ${await refusal(res)}`);
  const bar = progressBar("export");
  const out = (values.out ? Bun.file(values.out) : Bun.stdout).writer();
  let memories = 0;
  let failure = "";
  let tail = "";
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    out.write(chunk);
    // Counted by line type, on whole lines only (a chunk may end mid-line).
    const text = tail + Buffer.from(chunk).toString("utf8");
    const lines = text.split("\n");
    tail = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith('{"type":"memory"')) memories++;
      else if (line.startsWith('{"type":"error"')) failure = line;
    }
    bar.update(memories, Math.max(total, memories));
    await out.flush();
  }
  await out.end();
  if (failure) fail(`export stopped: ${failure} (resume with --cursor from the last cursor line)`);
  bar.finish(`${memories} memories`);
}

async function importFile(path: string): Promise<void> {
  const file = Bun.file(path);
  const size = file.size;
  const bar = progressBar("import");
  const report: ImportReport = {
    lines: 0,
    created: { tags: 0, entities: 0, memories: 0 },
    existing: { tags: 0, entities: 0, memories: 0 },
    failed: 0,
    errors: [],
  };
  let sent = 0;
  let linesBefore = 0;
  const post = async (part: Uint8Array, partLines: number) => {
    const res = await gatewayFetch(`${baseUrl}/v1/import`, {
      method: "POST",
      headers: { ...headers(), "Content-Type": "application/x-ndjson" },
      body: part as Uint8Array<ArrayBuffer>,
    });
    if (!res.ok) fail(`import: ${await refusal(res)} (after ${linesBefore} lines; run it again to resume)`);
    const r = ((await res.json()) as { data: ImportReport }).data;
    report.lines += r.lines;
    for (const k of ["tags", "entities", "memories"] as const) {
      report.created[k] += r.created[k];
      report.existing[k] += r.existing[k];
    }
    report.failed += r.failed;
    // Line numbers of the part, made the file's.
    report.errors.push(...r.errors.map((e) => ({ ...e, line: e.line + linesBefore })));
    linesBefore += partLines;
    sent += part.length;
    bar.update(sent, size);
  };
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let pendingLines = 0;
  let carry: Uint8Array = new Uint8Array(0);
  for await (const chunk of file.stream() as unknown as AsyncIterable<Uint8Array>) {
    const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const cut = data.lastIndexOf(10) + 1;
    carry = data.subarray(cut);
    const whole = data.subarray(0, cut);
    if (whole.length === 0) continue;
    pending.push(whole);
    pendingBytes += whole.length;
    for (const b of whole) if (b === 10) pendingLines++;
    if (pendingBytes >= PART_BYTES) {
      await post(Buffer.concat(pending), pendingLines);
      pending = [];
      pendingBytes = 0;
      pendingLines = 0;
    }
  }
  if (carry.length > 0) pending.push(carry);
  if (pending.length > 0) await post(Buffer.concat(pending), pendingLines + (carry.length > 0 ? 1 : 0));
  const c = report.created;
  bar.finish(
    `${report.lines} lines: created ${c.memories} memories, ${c.tags} tags, ${c.entities} entities; ` +
      `${report.existing.memories} memories already there; ${report.failed} failed`,
  );
  process.stdout.write(`${JSON.stringify(report)}\n`);
  if (report.failed > 0) process.exitCode = 2;
}

await runOperatorCommand(async () => {
  if (command === "import" && !(await Bun.file(path!).exists())) fail(`import: no such file: ${path}`);
  const api = stackTarget().api();
  baseUrl = api.baseUrl;
  key = api.key;
  if (api.keyNote) process.stderr.write(`${command}: ${api.keyNote}\n`);
  if (command === "export") await exportAll();
  else await importFile(path!);
});
