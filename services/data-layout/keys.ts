/**
 * The keys of the stored data's layout, one set per keyspace (a Redis, or a Redis Cluster), no hash tag:
 * each is read and written alone.
 *
 *   layout:version    string  the layout the keyspace's data is in (layout.ts LAYOUTS)
 *   layout:migration  hash    the migration under way: its step, target, cursor and counts (store.ts PROGRESS)
 *   layout:lock       string  the lease of the one runner of a migration (its owner id), with a TTL
 */
export const LAYOUT_KEYS = {
  version: "layout:version",
  migration: "layout:migration",
  lock: "layout:lock",
} as const;
