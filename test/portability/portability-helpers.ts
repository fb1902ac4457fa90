import { testStack } from "../harness";
import { newTenant, type ApiClient } from "../api";

/** A fresh tenant (key scopes `*`, so admin) with its raw key for the streamed routes. */
export async function portTenant() {
  const stack = await testStack();
  const t = await newTenant(stack.baseUrl, stack.adminKey);
  return { ...t, baseUrl: stack.baseUrl };
}

/** GET /v1/export as text, every line parsed. */
export async function exportLines(baseUrl: string, key: string, query = ""): Promise<any[]> {
  const res = await fetch(`${baseUrl}/v1/export${query}`, { headers: { Authorization: `Bearer ${key}` } });
  if (res.status !== 200) throw new Error(`GET /v1/export: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

export async function importText(baseUrl: string, key: string, body: string | ReadableStream<Uint8Array>) {
  const res = await fetch(`${baseUrl}/v1/import`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/x-ndjson" },
    body,
    ...(typeof body === "string" ? {} : { duplex: "half" }),
  } as RequestInit);
  return { status: res.status, body: (await res.json()) as any };
}

/** The data records of an export (no cursor or end lines). */
export const dataOf = (lines: any[]) => lines.filter((l) => ["tag", "entity", "memory"].includes(l.type));

/**
 * An export as a comparison sees it "modulo ids": each memory's id and parent replaced by a name (its content,
 * which the test makes unique), supersession by the content it names, ids of tags and entities and the
 * import's updated_at dropped.
 */
export function modIds(lines: any[]) {
  const data = dataOf(lines);
  const contentOf = new Map(data.filter((r) => r.type === "memory").map((r) => [r.id, r.content]));
  const name = (id: string | null) => (id === null ? null : (contentOf.get(id) ?? `?${id}`));
  return data.map((r) => {
    const { id: _id, updated_at: _u, ...rest } = r;
    if (r.type !== "memory") return rest;
    return {
      ...rest,
      parent_memory_id: name(r.parent_memory_id),
      supersedes: name(r.supersedes),
      superseded_by: name(r.superseded_by),
    };
  });
}

/** A small graph: tags, entities, a thread with nested turns, a supersession, external ids on some. */
export async function seed(api: ApiClient) {
  const ok = async (p: Promise<any>) => {
    const r = await p;
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    return r.body.data;
  };
  const red = await ok(api.post("/v1/tags", { name: "Red", color: "#ff0000", description: "warm" }));
  const blue = await ok(api.post("/v1/tags", { name: "blue" }));
  const ann = await ok(api.post("/v1/entities", { name: "Ann", type: "person", metadata: { age: 3 } }));
  await ok(api.post("/v1/entities", { name: "Porto", type: "place", description: "a city" }));
  const root = await ok(
    api.post("/v1/memories", {
      content: "thread root",
      tier: "long",
      external_id: "root-1",
      metadata: { source: "chat" },
      occurred_at: "2024-01-01T00:00:00.000Z",
    }),
  );
  const turns: any[] = [];
  for (let i = 0; i < 4; i++)
    turns.push(
      await ok(
        api.post("/v1/memories", {
          content: `turn ${i}`,
          parent_memory_id: root.id,
          content_type: "conversation",
          occurred_at: `2024-01-01T00:0${i + 1}:00.000Z`,
        }),
      ),
    );
  await ok(api.post("/v1/memories", { content: "reply to turn 1", parent_memory_id: turns[1].id }));
  await ok(api.post(`/v1/memories/${turns[0].id}/tags`, { tag_ids: [red.id, blue.id] }));
  await ok(api.post(`/v1/entities/${ann.id}/memories`, { memory_ids: [turns[0].id, root.id] }));
  const old = await ok(api.post("/v1/memories", { content: "Ann lives in Lisbon", memory_nature: "semantic" }));
  await ok(api.post("/v1/memories", { content: "Ann moved to Porto", supersedes: old.id, external_id: "move" }));
  await ok(api.post("/v1/memories", { content: "expires later", expires_at: "2099-01-01T00:00:00.000Z" }));
  return { root, turns, red, blue, ann };
}
