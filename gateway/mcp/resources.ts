import { getMemory, listMemories, type Memory } from "../../services/contract/memories";
import { hasScope } from "../../services/contract/op";
import { ServiceError } from "../../services/contract/errors";
import type { OperationCall } from "./call";
import type { Caller } from "../../services/contract/op";

/** A thread resource shows its turns up to this many, oldest first. */
export const THREAD_TURNS_MAX = 100;
/** resources/list offers the newest threads, at most this many. */
export const LISTED_THREADS_MAX = 50;

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "memory://{id}",
    name: "memory",
    title: "A memory",
    description: "One memory as JSON, with its tags and linked entity ids.",
    mimeType: "application/json",
  },
  {
    uriTemplate: "thread://{id}",
    name: "thread",
    title: "A conversation thread",
    description: "A memory and the memories under it (its turns), oldest first, as Markdown.",
    mimeType: "text/markdown",
  },
] as const;

export interface ResourceContents {
  uri: string;
  mimeType: string;
  text: string;
}

const URI = /^(memory|thread):\/\/([^/?#]+)$/;

/** A URI no template matches, or an id that names nothing this caller can see: one answer, not found. */
const unknownResource = (uri: string) => new ServiceError("NOT_FOUND", `Resource not found: ${uri}`);

const turn = (m: Memory) => `- **${m.created_at}** ${m.content.replaceAll("\n", "\n  ")}`;

async function thread(call: OperationCall, id: string): Promise<string> {
  const root = await call(getMemory, { id });
  const page = await call(listMemories, {
    parent_memory_id: id,
    sort: "created_at",
    order: "asc",
    limit: THREAD_TURNS_MAX,
  });
  const more = page.total > page.items.length ? `\n\n(${page.total - page.items.length} more turns not shown)` : "";
  return `# ${root.content}\n\n${page.items.map(turn).join("\n")}${more}\n`;
}

export async function readResource(call: OperationCall, uri: string): Promise<ResourceContents> {
  const match = URI.exec(uri);
  if (!match) throw unknownResource(uri);
  const [, kind, id] = match as unknown as [string, "memory" | "thread", string];
  try {
    if (kind === "memory")
      return { uri, mimeType: "application/json", text: JSON.stringify(await call(getMemory, { id })) };
    return { uri, mimeType: "text/markdown", text: await thread(call, id) };
  } catch (err) {
    // An unknown or malformed id is the resource that does not exist, whatever the service calls it.
    if (err instanceof ServiceError && (err.code === "NOT_FOUND" || err.code === "VALIDATION_ERROR"))
      throw unknownResource(uri);
    throw err;
  }
}

/** The newest threads (root memories), for clients that browse resources; none without `memories:read`. */
export async function listResources(call: OperationCall, caller: Caller) {
  if (!hasScope(caller, listMemories.scope)) return [];
  const page = await call(listMemories, { root: true, limit: LISTED_THREADS_MAX });
  return page.items.map((m) => ({
    uri: `thread://${m.id}`,
    name: m.content.length > 80 ? `${m.content.slice(0, 79)}…` : m.content,
    mimeType: "text/markdown",
  }));
}
