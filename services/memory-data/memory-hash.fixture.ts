/** A memory hash with every field set, as the memories service writes it: for tests of its readers. */
export const STORED_MEMORY_HASH: Record<string, string> = {
  content: "héllo 🌍",
  content_type: "fact",
  tier: "long",
  memory_nature: "semantic",
  parent: "p1",
  external_id: "ext-1",
  metadata: '{"a":[1,{"b":null}]}',
  created_at: "1700000000000",
  updated_at: "1700000000123",
  occurred_at: "-86400000",
  expires_at: "1800000000000",
  supersedes: "old-1",
  superseded_by: "new-1",
  valid_to: "1700000000500",
  v: "4",
};
