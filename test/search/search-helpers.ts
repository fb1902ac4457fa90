import type { ApiClient } from "../api";
import { ok } from "../memories/memory-helpers";

/** Shared by the search*.test.ts and context.test.ts files. */

/** A made-up word no other memory contains (letters only, so the stemmer keeps it recognisable). */
export const word = () =>
  "zq" +
  Array.from(crypto.getRandomValues(new Uint8Array(8)))
    .map((b) => String.fromCharCode(97 + (b % 26)))
    .join("");

export interface Result {
  id: string;
  content: string;
  score: number;
  scores: { semantic: number | null; lexical: number | null; thread: number | null; entity: number | null };
  [field: string]: unknown;
}

export async function search(api: ApiClient, body: Record<string, unknown>): Promise<Result[]> {
  return (await ok(api.post("/v1/search", body))).results;
}

export const searchIds = async (api: ApiClient, body: Record<string, unknown>) =>
  (await search(api, { limit: 100, ...body })).map((r) => r.id);

/** Polls until `check` passes (or the time is up, then fails with its last error). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 30_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await Bun.sleep(everyMs);
    }
  }
}
