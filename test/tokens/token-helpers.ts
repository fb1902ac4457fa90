import { expect } from "bun:test";
import { apiClient, type ApiClient } from "../api";

/** The scopes of a token that reads, writes and searches. */
export const WRITE_SCOPES = ["memories:read", "memories:write", "search:read"];

/** A client of a token minted by `api`'s key with `restrict`. */
export async function mintedToken(baseUrl: string, api: ApiClient, restrict: Record<string, unknown>) {
  const res = await api.post("/v1/tokens", { scopes: WRITE_SCOPES, restrict });
  expect(res.status).toBe(200);
  return apiClient(baseUrl, res.body.data.token);
}

/** Creates a memory through `api`, which must succeed; its id. */
export async function createdMemory(api: ApiClient, body: Record<string, unknown>): Promise<string> {
  const res = await api.post("/v1/memories", body);
  expect(res.status).toBe(200);
  return res.body.data.id as string;
}
