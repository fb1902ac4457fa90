import type { ApiClient } from "../api";

/** Shared by the tag-link e2e tests: memories come from the real POST /v1/memories. */
export async function memory(api: ApiClient, content = "a memory"): Promise<string> {
  const res = await api.post("/v1/memories", { content });
  if (res.status !== 200) throw new Error(`POST /v1/memories failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export async function tag(
  api: ApiClient,
  name: string,
  color?: string,
): Promise<{ id: string; name: string; color: string | null; memory_count: number }> {
  const res = await api.post("/v1/tags", color ? { name, color } : { name });
  if (res.status !== 200) throw new Error(`POST /v1/tags failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export const count = async (api: ApiClient, tagId: string) =>
  (await api.get(`/v1/tags/${tagId}`)).body.data.memory_count as number;
/** The memory's current tags as the attach endpoint reports them (re-attaching one skips it). */
export const tagsOf = async (api: ApiClient, memoryId: string, anyTagId: string) =>
  ((await api.post(`/v1/memories/${memoryId}/tags`, { tag_ids: [anyTagId] })).body.data.tags as { id: string }[]).map(
    (t) => t.id,
  );
