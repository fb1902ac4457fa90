import type { TSchema } from "@sinclair/typebox";
import type { Operation } from "../../services/contract/op";
import * as entities from "../../services/contract/entities";
import * as keys from "../../services/contract/keys";
import * as memories from "../../services/contract/memories";
import * as search from "../../services/contract/search";
import * as tags from "../../services/contract/tags";
import * as tenant from "../../services/contract/tenant";
import * as tokens from "../../services/contract/tokens";
import * as usage from "../../services/contract/usage";
import * as webhooks from "../../services/contract/webhooks";
import * as erase from "../../services/contract/erase";
import { unique, type Ids } from "./ids";

/**
 * Every root field of the served GraphQL schema (Query, Mutation, Subscription): the contract operation it runs
 * (whose scope it needs) and a document with variables built from ids. Each document walks what can leak: a
 * memory's parent, ancestors, children, tags and entities with their counts. The test asserts this table has
 * exactly the schema's root fields, found by introspection, so a field added without an entry fails.
 */
export interface GraphqlCall {
  op: Operation<TSchema, TSchema>;
  doc: string;
  vars: (ids: Ids) => Record<string, unknown>;
}

export const WALK =
  "id content externalId metadata supersedes supersededBy parentMemoryId entityIds " +
  "tags { id name memoryCount } entities { id memoryCount } parent { id content } ancestors { id content } " +
  "children(limit: 50) { total items { id content } }";
export const PAGE = `total limit offset items { ${WALK} }`;
const TAG = `id name memoryCount memories(limit: 50) { ${PAGE} }`;
const ENTITY = `id name memoryCount memories(limit: 50) { ${PAGE} }`;
const WEBHOOK = "id url";
const DELIVERY = "id status";

const q = (op: GraphqlCall["op"], doc: string, vars: GraphqlCall["vars"] = () => ({})): GraphqlCall => ({
  op,
  doc,
  vars,
});

export const GRAPHQL_CALLS: Record<string, GraphqlCall> = {
  memory: q(memories.getMemory, `query($id: ID!) { memory(id: $id) { ${WALK} } }`, (i) => ({ id: i.memory })),
  memories: q(
    memories.listMemories,
    `query($f: MemoryFilter) { memories(filter: $f, limit: 100) { ${PAGE} } }`,
    (i) => ({ f: { parentMemoryId: i.memory, tagIds: [i.tag], entityId: i.entity, externalId: i.external } }),
  ),
  createMemory: q(
    memories.createMemory,
    `mutation($in: CreateMemoryInput!) { createMemory(input: $in) { ${WALK} } }`,
    (i) => ({
      in: { content: "written by security", parentMemoryId: i.memory, supersedes: i.other, externalId: i.external },
    }),
  ),
  createMemories: q(
    memories.createMemories,
    `mutation($items: [CreateMemoriesItem!]!) { createMemories(items: $items) { created failed } }`,
    (i) => ({ items: [{ memory: { content: "batch by security", parentMemoryId: i.memory, supersedes: i.other } }] }),
  ),
  updateMemory: q(
    memories.updateMemory,
    'mutation($id: ID!, $p: ID) { updateMemory(id: $id, input: { content: "changed", parentMemoryId: $p }) ' +
      `{ ${WALK} } }`,
    (i) => ({ id: i.memory, p: i.other }),
  ),
  deleteMemory: q(
    memories.deleteMemory,
    "mutation($id: ID!) { deleteMemory(id: $id, cascade: true) { id deleted deletedCount } }",
    (i) => ({ id: i.memory }),
  ),
  tag: q(tags.getTag, `query($id: ID!) { tag(id: $id) { ${TAG} } }`, (i) => ({ id: i.tag })),
  tags: q(tags.listTags, "{ tags(limit: 100) { total items { id name memoryCount } } }"),
  createTag: q(tags.createTag, "mutation($n: String!) { createTag(input: { name: $n }) { id } }", () => ({
    n: unique("sec-tag"),
  })),
  updateTag: q(
    tags.updateTag,
    `mutation($id: ID!) { updateTag(id: $id, input: { description: "changed" }) { ${TAG} } }`,
    (i) => ({ id: i.tag }),
  ),
  deleteTag: q(tags.deleteTag, "mutation($id: ID!) { deleteTag(id: $id) { id deleted } }", (i) => ({ id: i.tag })),
  attachTags: q(
    tags.attachTags,
    "mutation($m: ID!, $t: ID!) { attachTags(memoryId: $m, tagIds: [$t]) { added tags { id memoryCount } " +
      `memory { ${WALK} } } }`,
    (i) => ({ m: i.memory, t: i.tag }),
  ),
  detachTag: q(
    tags.detachTag,
    `mutation($m: ID!, $t: ID!) { detachTag(memoryId: $m, tagId: $t) { removed memory { ${WALK} } } }`,
    (i) => ({ m: i.memory, t: i.tag }),
  ),
  entity: q(entities.getEntity, `query($id: ID!) { entity(id: $id) { ${ENTITY} } }`, (i) => ({ id: i.entity })),
  entities: q(entities.listEntities, "{ entities(limit: 100) { total items { id name memoryCount } } }"),
  createEntity: q(
    entities.createEntity,
    "mutation($n: String!, $m: ID!) { createEntity(input: { name: $n, type: CONCEPT, memoryIds: [$m] }) " +
      "{ id memoryCount } }",
    (i) => ({ n: unique("Sec"), m: i.memory }),
  ),
  updateEntity: q(
    entities.updateEntity,
    `mutation($id: ID!) { updateEntity(id: $id, input: { description: "changed" }) { ${ENTITY} } }`,
    (i) => ({ id: i.entity }),
  ),
  deleteEntity: q(entities.deleteEntity, "mutation($id: ID!) { deleteEntity(id: $id) { id deleted } }", (i) => ({
    id: i.entity,
  })),
  linkEntityMemories: q(
    entities.linkEntityMemories,
    "mutation($id: ID!, $m: ID!) { linkEntityMemories(id: $id, memoryIds: [$m]) { __typename } }",
    (i) => ({ id: i.entity, m: i.memory }),
  ),
  unlinkEntityMemory: q(
    entities.unlinkEntityMemory,
    "mutation($id: ID!, $m: ID!) { unlinkEntityMemory(id: $id, memoryId: $m) { __typename } }",
    (i) => ({ id: i.entity, m: i.memory }),
  ),
  search: q(
    search.searchMemories,
    'query($p: ID) { search(input: { query: "*", limit: 100, parentMemoryId: $p }) ' +
      `{ results { memory { ${WALK} } } } }`,
    (i) => ({ p: i.memory }),
  ),
  context: q(
    search.buildContext,
    'query($p: ID) { context(input: { query: "tea", parentMemoryId: $p, neighbors: 3 }) ' +
      `{ context memories { memory { ${WALK} } } } }`,
    (i) => ({ p: i.memory }),
  ),
  keys: q(keys.listKeys, "{ keys { total items { id } } }"),
  key: q(keys.getKey, "query($id: ID!) { key(id: $id) { id name } }", (i) => ({ id: i.key })),
  usage: q(usage.getUsage, "query($k: ID) { usage(keyId: $k) { __typename } }", (i) => ({ k: i.key })),
  createKey: q(
    keys.createKey,
    'mutation($t: String) { createKey(input: { name: "security", scopes: [MEMORIES_READ], tenantId: $t }) { key } }',
    (i) => ({ t: i.tenant }),
  ),
  revokeKey: q(keys.revokeKey, "mutation($id: ID!) { revokeKey(id: $id) { __typename } }", (i) => ({ id: i.key })),
  updateKey: q(keys.updateKey, 'mutation($id: ID!) { updateKey(id: $id, input: { name: "renamed" }) { id } }', (i) => ({
    id: i.key,
  })),
  rotateKey: q(keys.rotateKey, "mutation($id: ID!) { rotateKey(id: $id) { key } }", (i) => ({ id: i.key })),
  tenant: q(tenant.getTenant, "query($t: String) { tenant(tenantId: $t) { __typename } }", (i) => ({ t: i.tenant })),
  updateTenant: q(
    tenant.updateTenant,
    "mutation($t: String) { updateTenant(input: { tenantId: $t }) { __typename } }",
    (i) => ({ t: i.tenant }),
  ),
  eraseTenant: q(
    erase.eraseTenant,
    "mutation($t: String) { eraseTenant(tenantId: $t, environment: LIVE) { erased } }",
    (i) => ({ t: i.tenant }),
  ),
  createToken: q(tokens.createToken, "mutation { createToken(input: { scopes: [MEMORIES_READ] }) { token } }"),
  webhooks: q(webhooks.listWebhooks, `{ webhooks { total items { ${WEBHOOK} } } }`),
  webhook: q(webhooks.getWebhook, `query($id: ID!) { webhook(id: $id) { ${WEBHOOK} } }`, (i) => ({ id: i.webhook })),
  webhookDeliveries: q(
    webhooks.listWebhookDeliveries,
    `query($id: ID!) { webhookDeliveries(id: $id) { total items { ${DELIVERY} } } }`,
    (i) => ({ id: i.webhook }),
  ),
  createWebhook: q(
    webhooks.createWebhook,
    'mutation { createWebhook(input: { url: "http://127.0.0.1:9/security", events: [ALL] }) { secret } }',
  ),
  updateWebhook: q(
    webhooks.updateWebhook,
    `mutation($id: ID!) { updateWebhook(id: $id, input: { description: "changed" }) { ${WEBHOOK} } }`,
    (i) => ({ id: i.webhook }),
  ),
  deleteWebhook: q(webhooks.deleteWebhook, "mutation($id: ID!) { deleteWebhook(id: $id) { id } }", (i) => ({
    id: i.webhook,
  })),
  rotateWebhookSecret: q(
    webhooks.rotateWebhookSecret,
    "mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }",
    (i) => ({ id: i.webhook }),
  ),
  testWebhook: q(webhooks.testWebhook, `mutation($id: ID!) { testWebhook(id: $id) { ${DELIVERY} } }`, (i) => ({
    id: i.webhook,
  })),
  retryWebhookDelivery: q(
    webhooks.retryWebhookDelivery,
    `mutation($id: ID!, $d: ID!) { retryWebhookDelivery(id: $id, deliveryId: $d) { ${DELIVERY} } }`,
    (i) => ({ id: i.webhook, d: i.delivery }),
  ),
  memoryEvents: q(
    memories.getMemory,
    "subscription($m: [ID!]) { memoryEvents(filter: { memoryIds: $m }) { type memoryId changed } }",
    (i) => ({ m: [i.memory] }),
  ),
};
