import { Type as T, type Static, type TSchema } from "@sinclair/typebox";
import { Uuid } from "../../services/contract/common";
import { linkEntityMemories } from "../../services/contract/entities";
import {
  CreateMemoryInput,
  createMemory,
  deleteMemory,
  getMemory,
  listMemories,
} from "../../services/contract/memories";
import type { Scope } from "../../services/contract/op";
import { buildContext, searchMemories } from "../../services/contract/search";
import { attachTags, MAX_TAGS_PER_MEMORY, TAG_NAME_MAX } from "../../services/contract/tags";
import { ENTITY_TYPES } from "../../services/contract/entities";
import { Enum } from "../../services/contract/common";
import { discardTags, ensureTags, linkByName, type NamedTags } from "./names";
import type { OperationCall } from "./call";

/** What a tool answers: a text for the model, and the same data as structured content. */
export interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
}

/**
 * One MCP tool: a name and description written for a model choosing between tools, an input schema
 * built from the contract's TypeBox schemas, and a run over contract operations (no rule of its own).
 */
export interface McpTool<S extends TSchema = TSchema> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** Every scope the tool's operations need: a key without them is not offered the tool. */
  scopes: Scope[];
  readOnly: boolean;
  run(args: Static<S>, call: OperationCall): Promise<ToolAnswer>;
}

const tool = <S extends TSchema>(def: McpTool<S>): McpTool => def as unknown as McpTool;
const json = (data: Record<string, unknown>): ToolAnswer => ({ text: JSON.stringify(data), data });

const TagNames = T.Array(T.String({ minLength: 1, maxLength: TAG_NAME_MAX }), {
  minItems: 1,
  maxItems: MAX_TAGS_PER_MEMORY,
  description: "Tag names (case-insensitive); tags that do not exist yet are created.",
});

const remember = tool({
  name: "remember",
  title: "Remember",
  description:
    "Store a new memory: a fact, a preference, an event or a conversation turn worth recalling later. " +
    "To add a turn to a conversation thread, pass the thread's memory id as `parent_memory_id` (the new " +
    "memory becomes its child). Optionally label it with tag names. `occurred_at` says when it happened (for " +
    "turns imported later: it orders the thread); `supersedes` names a memory this one corrects or replaces; " +
    "`ttl_seconds` makes it expire. Returns the stored memory with its id.",
  input: T.Object({ ...CreateMemoryInput.properties, tags: T.Optional(TagNames) }, { additionalProperties: false }),
  scopes: ["memories:write"],
  readOnly: false,
  async run({ tags, ...fields }, call) {
    const memory = await call(createMemory, fields);
    if (!tags) return json(memory);
    let named: NamedTags | null = null;
    try {
      named = await ensureTags(call, tags);
      const attached = await call(attachTags, { memory_id: memory.id, tag_ids: named.ids });
      return json({ ...memory, tags: attached.tags });
    } catch (err) {
      // A refused call stores nothing: the memory, and the tags it created, go again.
      await call(deleteMemory, { id: memory.id }).catch(() => undefined);
      if (named) await discardTags(call, named.created);
      throw err;
    }
  },
});

const recall = tool({
  name: "recall",
  title: "Recall",
  description:
    "Search stored memories by meaning and keywords. Use it before answering anything that may depend on " +
    "what was said or stored earlier. Returns the best matches with scores; filters narrow by tag, type, " +
    'thread, entity, time or metadata. `query: "*"` lists everything, newest first.',
  input: searchMemories.input,
  scopes: ["search:read"],
  readOnly: true,
  run: async (args, call) => json(await call(searchMemories, args)),
});

const getContext = tool({
  name: "get_context",
  title: "Get context",
  description:
    "Assemble ready-to-read context for a question: the matching memories with their thread ancestors and " +
    "neighbouring turns, grouped by thread, dated, and cut to a token budget. Prefer it over `recall` " +
    "when you need background to answer rather than a list of hits.",
  input: buildContext.input,
  scopes: ["search:read"],
  readOnly: true,
  async run(args, call) {
    const out = await call(buildContext, args);
    return { text: out.context, data: out };
  },
});

const listMemoriesTool = tool({
  name: "list_memories",
  title: "List memories",
  description:
    "List memories by structure rather than meaning: the turns of a thread (`parent_memory_id`), roots only, " +
    "memories with given tags or an entity, or in a time range; sorted and paginated with an exact total.",
  input: listMemories.input,
  scopes: ["memories:read"],
  readOnly: true,
  run: async (args, call) => json(await call(listMemories, args)),
});

const getMemoryTool = tool({
  name: "get_memory",
  title: "Get memory",
  description: "Read one memory by id, with its tags and linked entity ids.",
  input: getMemory.input,
  scopes: ["memories:read"],
  readOnly: true,
  run: async (args, call) => json(await call(getMemory, args)),
});

const forget = tool({
  name: "forget",
  title: "Forget",
  description:
    "Delete a memory for good, e.g. when the user asks to forget something or it turned out wrong. Its " +
    "children become roots, or with `cascade: true` the whole thread below it is deleted too.",
  input: deleteMemory.input,
  scopes: ["memories:write"],
  readOnly: false,
  run: async (args, call) => json(await call(deleteMemory, args)),
});

const tagMemory = tool({
  name: "tag_memory",
  title: "Tag memory",
  description:
    "Label an existing memory with tags by name (missing tags are created). Tags already on it are kept. " +
    "Returns every tag the memory now carries.",
  input: T.Object({ memory_id: Uuid(), tags: TagNames }, { additionalProperties: false }),
  scopes: ["memories:write"],
  readOnly: false,
  async run({ memory_id, tags }, call) {
    const named = await ensureTags(call, tags);
    try {
      return json(await call(attachTags, { memory_id, tag_ids: named.ids }));
    } catch (err) {
      await discardTags(call, named.created); // a refused call stores nothing
      throw err;
    }
  },
});

const linkEntity = tool({
  name: "link_entity",
  title: "Link entity",
  description:
    "Record that memories are about a named thing (a person, organization, place, product, event, concept). " +
    "Give the entity by `entity_id`, or by `name` and `type` (found case-insensitively, created if new). " +
    "Memories linked to an entity can later be listed or searched by it.",
  input: T.Object(
    {
      memory_ids: linkEntityMemories.input.properties.memory_ids,
      entity_id: T.Optional(Uuid({ description: "An existing entity; or give name and type instead." })),
      name: T.Optional(T.String({ minLength: 1, maxLength: 200, description: "The entity's name." })),
      type: T.Optional(Enum(ENTITY_TYPES, { description: "The entity's type; required with name." })),
    },
    { additionalProperties: false },
  ),
  scopes: ["memories:write"],
  readOnly: false,
  async run({ memory_ids, entity_id, name, type }, call) {
    if (entity_id !== undefined) return json(await call(linkEntityMemories, { id: entity_id, memory_ids }));
    return json(await linkByName(call, name, type, memory_ids));
  },
});

/** The tools the MCP endpoint offers, in the order a model sees them. */
export const MCP_TOOLS: readonly McpTool[] = [
  remember,
  recall,
  getContext,
  listMemoriesTool,
  getMemoryTool,
  forget,
  tagMemory,
  linkEntity,
];
