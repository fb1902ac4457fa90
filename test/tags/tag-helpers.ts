import type { ApiClient } from "../api";

/** Shared by the tags*.test.ts and tag-links*.test.ts files: memories come from the real POST /v1/memories. */
export async function memory(api: ApiClient, content = "a memory"): Promise<string> {
  const res = await api.post("/v1/memories", { content });
  if (res.status !== 200) throw new Error(`POST /v1/memories failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export interface TagOut {
  id: string;
  name: string;
  color: string | null;
  description: string | null;
  memory_count: number;
  created_at: string;
  updated_at: string;
}

export async function createTag(api: ApiClient, body: Record<string, unknown>): Promise<TagOut> {
  const res = await api.post("/v1/tags", body);
  if (res.status !== 200) throw new Error(`POST /v1/tags failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export const tag = (api: ApiClient, name: string, color?: string) => createTag(api, color ? { name, color } : { name });

export const count = async (api: ApiClient, tagId: string) =>
  (await api.get(`/v1/tags/${tagId}`)).body.data.memory_count as number;
/** The memory's current tags as the attach endpoint reports them (re-attaching one skips it). */
export const tagsOf = async (api: ApiClient, memoryId: string, anyTagId: string) =>
  ((await api.post(`/v1/memories/${memoryId}/tags`, { tag_ids: [anyTagId] })).body.data.tags as { id: string }[]).map(
    (t) => t.id,
  );
