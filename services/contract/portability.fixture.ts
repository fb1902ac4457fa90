import type { MemoryRecord } from "./portability";
import { memoryFixture } from "./memory.fixture";

/**
 * A memory line of an export (what an import takes), for tests and benches: the API's memory of memoryFixture as an
 * export writes it (tags and entities by name), `over` wins.
 */
export function memoryRecordFixture(over: Partial<MemoryRecord> = {}, at = "2024-01-01T00:00:00.000Z"): MemoryRecord {
  const { entity_ids: _ids, ...memory } = memoryFixture({}, at);
  return { type: "memory", ...memory, tags: [], entities: [], ...over };
}
