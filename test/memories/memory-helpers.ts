import { expect } from "bun:test";
import { testStack } from "../harness";
import { newTenant, type ApiClient, type ApiResponse } from "../api";
import { expectError } from "../envelope-helpers";

/** Shared by the memories*.test.ts and entities*.test.ts files. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

/** The allowed values of each enum field of a memory, in the order error messages list them. */
export const MEMORY_ENUMS = {
  content_type: ["text", "conversation", "document", "event", "fact"],
  tier: ["short", "medium", "long"],
  memory_nature: ["episodic", "semantic"],
};

export const ENTITY_TYPES = ["person", "organization", "place", "product", "event", "concept", "other"];

/** The refusal of an entity name already taken for its type, as expectError's message and details. */
export const ENTITY_NAME_TAKEN = [
  "An entity with this name and type already exists",
  { field: "name", constraint: "unique", existing_id: expect.any(String) },
] as const;

export const expectNotFound = (res: ApiResponse, what = "Memory") =>
  expectError(res, 404, "NOT_FOUND", `${what} not found`);

export async function tenant(opts: Parameters<typeof newTenant>[2] = {}) {
  const stack = await testStack();
  return newTenant(stack.baseUrl, stack.adminKey, opts);
}

export interface MemoryOut {
  id: string;
  content: string;
  content_type: string;
  tier: string;
  memory_nature: string;
  parent_memory_id: string | null;
  external_id: string | null;
  metadata: Record<string, unknown>;
  tags: { id: string; name: string; color: string | null }[];
  entity_ids: string[];
  created_at: string;
  updated_at: string;
}

export async function createMemory(api: ApiClient, body: Record<string, unknown> = {}): Promise<MemoryOut> {
  const res = await api.post("/v1/memories", { content: "a memory", ...body });
  if (res.status !== 200) throw new Error(`POST /v1/memories: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function ok(res: Promise<ApiResponse> | ApiResponse): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`expected 200, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** Every page of a list, followed through `has_more`. */
export async function listAll(api: ApiClient, path: string): Promise<any[]> {
  const out: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await api.get(`${path}${sep}limit=100&offset=${offset}`);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...res.body.data);
    if (!res.body.meta.has_more) return out;
  }
}

export const ids = (xs: { id: string }[]) => xs.map((x) => x.id);
