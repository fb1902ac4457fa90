import type { MemoryEvent } from "./events";

/** A `created` event of tenant acme's live environment, for tests: no snapshot unless given, `over` wins. */
export const memoryEventFixture = (id: string, over: Partial<MemoryEvent> = {}): MemoryEvent => ({
  type: "created",
  tenant: "acme",
  env: "live",
  memory_id: id,
  version: 1,
  changed: [],
  memory: null,
  at: "2026-01-01T00:00:00.000Z",
  ...over,
});
