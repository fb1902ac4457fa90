import { mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack } from "../../scripts/stack/launch";
import { newTenant } from "../api";
import type { BenchSection } from "./sections";
import { memoryRecordFixture } from "../../services/contract/portability.fixture";

const MEMORIES = Number(process.env.BENCH_PORT_MEMORIES ?? 100_000);
/** One POST of the import at most: the server caps a body at 64 MiB (as `npm run import` cuts a file). */
const PART_BYTES = 16 * 1024 * 1024;
const TURN = "and then the conversation went on about the harbour, the festival and the weather that week. ";

/**
 * An export file of `count` memories: 20 tags, 50 entities, threads of a root and 9 turns, each memory with a
 * tag, every fifth with an entity and an external_id, about 300 bytes of content.
 */
function* exportFile(count: number): Generator<string> {
  const at = Date.parse("2025-01-01T00:00:00.000Z");
  const iso = (ms: number) => new Date(ms).toISOString();
  for (let i = 0; i < 20; i++)
    yield JSON.stringify({
      type: "tag",
      id: crypto.randomUUID(),
      name: `tag-${i}`,
      color: null,
      description: null,
      created_at: iso(at),
    });
  for (let i = 0; i < 50; i++)
    yield JSON.stringify({
      type: "entity",
      id: crypto.randomUUID(),
      name: `Person ${i}`,
      entity_type: "person",
      description: null,
      metadata: {},
      created_at: iso(at),
    });
  let root = "";
  for (let i = 0; i < count; i++) {
    const id = crypto.randomUUID();
    const isRoot = i % 10 === 0;
    if (isRoot) root = id;
    yield JSON.stringify(
      memoryRecordFixture(
        {
          id,
          content: `${i} ${TURN}${TURN}${TURN}`.slice(0, 300),
          content_type: isRoot ? "text" : "conversation",
          parent_memory_id: isRoot ? null : root,
          external_id: i % 5 === 0 ? `ext-${i}` : null,
          metadata: { n: i },
          tags: [`tag-${i % 20}`],
          entities: i % 5 === 0 ? [{ type: "person", name: `Person ${i % 50}` }] : [],
        },
        iso(at + i),
      ),
    );
  }
}

/**
 * Export and import of 100,000 memories (BENCH_PORT_MEMORIES), memories/s, on a stack without the
 * search service: "before embeddings". The import goes in 16 MiB POSTs, as `npm run import` sends a file.
 */
export const portabilitySection: BenchSection = {
  name: "portability",
  async run() {
    const dataDir = mkdtempSync(join(resolve(".data-bench"), "portability-"));
    const stack = await startStack({ dataDir, without: ["search"], env: { LOG_LEVEL: "error" } });
    try {
      const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
      const auth = { Authorization: `Bearer ${t.key}` };
      const parts: string[] = [];
      let part = "";
      for (const line of exportFile(MEMORIES)) {
        part += `${line}\n`;
        if (part.length >= PART_BYTES) {
          parts.push(part);
          part = "";
        }
      }
      if (part) parts.push(part);
      const bytes = parts.reduce((n, p) => n + p.length, 0);

      let created = 0;
      let failed = 0;
      const importStarted = performance.now();
      for (const body of parts) {
        const res = await fetch(`${stack.baseUrl}/v1/import`, { method: "POST", headers: auth, body });
        const report = ((await res.json()) as any).data;
        created += report.created.memories;
        failed += report.failed;
      }
      const importS = (performance.now() - importStarted) / 1000;
      console.log(
        `POST /v1/import  ${MEMORIES} memories (${(bytes / 1048576).toFixed(1)} MiB) in ${importS.toFixed(1)} s: ` +
          `${(created / importS).toFixed(0)} memories/s (${created} created, ${failed} failed; goal ≥ 5,000/s)`,
      );

      const exportStarted = performance.now();
      const res = await fetch(`${stack.baseUrl}/v1/export`, { headers: auth });
      let lines = 0;
      let exportedBytes = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        exportedBytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      }
      const exportS = (performance.now() - exportStarted) / 1000;
      console.log(
        `GET /v1/export   ${lines} lines (${(exportedBytes / 1048576).toFixed(1)} MiB) in ${exportS.toFixed(1)} s: ` +
          `${(created / exportS).toFixed(0)} memories/s (goal ≥ 20,000/s)`,
      );
    } finally {
      await stack.stop();
    }
  },
};
