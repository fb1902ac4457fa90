import { describe, expect, test } from "bun:test";
import { memoryRecordFixture } from "../../services/contract/portability.fixture";
import { dataOf, exportLines, portTenant } from "./portability-helpers";

const ndjson = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify(memoryRecordFixture({ id: crypto.randomUUID(), content: `line ${i}`, external_id: null })),
  ).join("\n") + "\n";

type Target = Awaited<ReturnType<typeof portTenant>>;

/** POST /v1/import with an Idempotency-Key: the answer as text, with its headers. */
async function keyedImport(t: Target, key: string, body: BodyInit, signal?: AbortSignal) {
  const res = await fetch(`${t.baseUrl}/v1/import`, {
    method: "POST",
    headers: { Authorization: `Bearer ${t.key}`, "Idempotency-Key": key, "Content-Type": "application/x-ndjson" },
    body,
    duplex: "half",
    signal,
  } as RequestInit);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const memoriesOf = async (t: Target) =>
  dataOf(await exportLines(t.baseUrl, t.key)).filter((r) => r.type === "memory").length;

describe("Idempotency-Key on POST /v1/import", () => {
  test("a repeat answers the first report byte for byte, marked replayed, and imports nothing", async () => {
    const t = await portTenant();
    const body = ndjson(3);
    const first = await keyedImport(t, "import-1", body);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text).data.created.memories).toBe(3);
    const again = await keyedImport(t, "import-1", body);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("original-request")).toBe(JSON.parse(first.text).meta.request_id);
    expect(await memoriesOf(t)).toBe(3);
  });

  test("the same key with other bytes is a 422 and imports nothing", async () => {
    const t = await portTenant();
    expect((await keyedImport(t, "import-2", ndjson(1))).status).toBe(200);
    const other = await keyedImport(t, "import-2", ndjson(2));
    expect(other.status).toBe(422);
    expect(JSON.parse(other.text).error).toMatchObject({
      code: "IDEMPOTENCY_KEY_REUSED",
      details: { field: "idempotency-key", constraint: "same_request" },
    });
    expect(await memoriesOf(t)).toBe(1);
  });

  test("a repeat while the first is still read is a 409; a body cut short frees the key for the retry", async () => {
    const t = await portTenant();
    const body = ndjson(4);
    const cutAt = body.indexOf("line 2");
    const cut = new AbortController();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body.slice(0, cutAt)));
      },
    });
    const pending = keyedImport(t, "import-3", stream, cut.signal).catch(() => null);
    await Bun.sleep(300);
    const during = await keyedImport(t, "import-3", body);
    expect(during.status).toBe(409);
    expect(JSON.parse(during.text).error.code).toBe("IDEMPOTENCY_IN_FLIGHT");
    cut.abort();
    await pending;
    await Bun.sleep(300);
    // The retry runs (not a replay of the cut import): what went in before is existing, the rest is created.
    const retry = await keyedImport(t, "import-3", body);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    const report = JSON.parse(retry.text).data;
    expect(report.created.memories).toBeGreaterThan(0);
    expect(report.created.memories + report.existing.memories).toBe(4);
    expect(await memoriesOf(t)).toBe(4);
  });
});

describe("Idempotency-Key on DELETE /v1/tenant", () => {
  test("refused with a 400 that says why, and nothing is erased", async () => {
    const t = await portTenant();
    expect((await keyedImport(t, "seed", ndjson(2))).status).toBe(200);
    const res = await fetch(`${t.baseUrl}/v1/tenant?confirm=${t.tenant}:live`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${t.key}`, "Idempotency-Key": "erase-1" },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.error.details).toEqual({ field: "idempotency-key", constraint: "unsupported" });
    expect(body.error.message).toContain("safe to send again without one");
    expect(await memoriesOf(t)).toBe(2);
  });
});
