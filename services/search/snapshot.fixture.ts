import type { MemorySnapshot } from "../contract/events";

/** A memory as the index sees it, for tests: plain defaults, `over` wins. */
export function snapshotFixture(over: Partial<MemorySnapshot> = {}, at = "2024-01-01T00:00:00.000Z"): MemorySnapshot {
  return {
    id: crypto.randomUUID(),
    content: "hello world",
    content_type: "text",
    tier: "medium",
    memory_nature: "episodic",
    parent_memory_id: null,
    external_id: null,
    metadata: {},
    tag_ids: [],
    entity_ids: [],
    created_at: at,
    updated_at: at,
    version: 1,
    ...over,
  };
}
