import type { Memory } from "./memories";

/** A memory as the API shows it, for tests: plain defaults, `over` wins. */
export function memoryFixture(over: Partial<Memory> = {}, at = "2024-01-01T00:00:00.000Z"): Memory {
  return {
    id: crypto.randomUUID(),
    content: "hello world",
    content_type: "text",
    tier: "medium",
    memory_nature: "episodic",
    parent_memory_id: null,
    external_id: null,
    metadata: {},
    tags: [],
    entity_ids: [],
    created_at: at,
    updated_at: at,
    occurred_at: at,
    expires_at: null,
    supersedes: null,
    superseded_by: null,
    valid_to: null,
    ...over,
  };
}
