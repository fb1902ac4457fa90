import type { Scope } from "../../services/contract/op";
import { MCP_TOOLS } from "../../gateway/mcp/tools";
import { unique, type Ids } from "./ids";

/**
 * The arguments of every MCP tool, built from ids. The test asserts this table names exactly the tools
 * tools/list offers a key holding `*`, so a tool added without an entry fails.
 */
export const TOOL_ARGS: Record<string, (ids: Ids) => Record<string, unknown>> = {
  remember: (i) => ({
    content: "remembered by security",
    parent_memory_id: i.memory,
    supersedes: i.other,
    external_id: i.external,
    tags: [i.tagName],
  }),
  recall: (i) => ({ query: "*", limit: 100, parent_memory_id: i.memory }),
  get_context: (i) => ({ query: "tea", parent_memory_id: i.memory, neighbors: 3 }),
  list_memories: (i) => ({ parent_memory_id: i.memory, tag_id: [i.tag], entity_id: i.entity, limit: 100 }),
  get_memory: (i) => ({ id: i.memory }),
  forget: (i) => ({ id: i.memory, cascade: true }),
  tag_memory: (i) => ({ memory_id: i.memory, tags: [i.tagName] }),
  link_entity: (i) => ({ memory_ids: [i.memory], entity_id: i.entity }),
};

/** A second spelling of link_entity: the entity by name, created when new. */
export const linkEntityByName = (i: Ids) => ({ memory_ids: [i.memory], name: unique("Sec"), type: "concept" });

/** The scope a tool needs: the first its operations need (each tool's operations share one scope). */
export function toolScope(name: string): Scope {
  const tool = MCP_TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in gateway/mcp/tools.ts`);
  return tool.scopes[0]!;
}

export const toolWrites = (name: string) => !MCP_TOOLS.find((t) => t.name === name)?.readOnly;
