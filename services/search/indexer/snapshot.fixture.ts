import { snapshotOfMemory, type MemorySnapshot } from "../../contract/events";
import { memoryFixture } from "../../contract/memory.fixture";

/** A memory as the index sees it, for tests: plain defaults, `over` wins. */
export function snapshotFixture(over: Partial<MemorySnapshot> = {}, at = "2024-01-01T00:00:00.000Z"): MemorySnapshot {
  return { ...snapshotOfMemory(memoryFixture({}, at), 1), ...over };
}
