import type { CallOptions, QueryValue, Transport } from "./http.ts";

/** One page of a list, with its position in the whole (totals are exact). */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

export type ListQuery = Record<string, QueryValue> & { limit?: number; offset?: number };

export async function listPage<T>(
  request: Transport,
  path: string,
  query: ListQuery | undefined,
  options?: CallOptions,
): Promise<Page<T>> {
  const { data, meta } = await request<T[]>({ method: "GET", path, query, idempotent: true }, options);
  return {
    items: data,
    total: meta.total ?? data.length,
    limit: meta.limit ?? data.length,
    offset: meta.offset ?? 0,
    hasMore: meta.has_more ?? false,
  };
}

/**
 * Every item of a list, page after page (`limit` per page, default 100), from `offset` on. Offsets move by
 * the items received, so an item created meanwhile may shift the pages: newest-first lists can repeat one.
 */
export async function* iterate<T>(
  request: Transport,
  path: string,
  query: ListQuery | undefined,
  options?: CallOptions,
): AsyncGenerator<T, void, undefined> {
  let offset = query?.offset ?? 0;
  for (;;) {
    const page = await listPage<T>(request, path, { ...query, limit: query?.limit ?? 100, offset }, options);
    yield* page.items;
    if (!page.hasMore || page.items.length === 0) return;
    offset += page.items.length;
  }
}
