import createClient, { type Client, type Middleware } from "openapi-fetch";
// Generated from the live /docs/json by openapi-typescript (openapi.test.ts); it exists only where that test
// writes it, so the repository's own typecheck leaves this file out (tsconfig.json).
import type { paths } from "memory-service-api";

/**
 * A chat backend's life, through a client generated from the OpenAPI document alone: it mints a key for its
 * tenant, stores a conversation as a thread of memories with metadata, tags and entities, searches it, builds
 * an LLM context from it, cleans up, and reads its usage. It calls every operation of the document.
 */
export async function chatScenario(baseUrl: string, rootKey: string, observe: Middleware): Promise<void> {
  const connect = (key: string): Client<paths> => {
    const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });
    client.use(observe);
    return client;
  };
  const root = connect(rootKey);
  const tenant = `chat-${crypto.randomUUID().slice(0, 8)}`;
  const minted = await ok(
    root.POST("/v1/keys", {
      body: { name: "chat backend", tenant_id: tenant, scopes: ["*"], rate_limit: 100_000, plan: "pro" },
    }),
  );
  expect(minted.data.tenant_id === tenant, "the key belongs to the tenant asked for");
  const api = connect(minted.data.key);

  // A tag for what the user told us about themselves.
  const tag = (await ok(api.POST("/v1/tags", { body: { name: "preferences", color: "#22AA88" } }))).data;
  const tags = await ok(api.GET("/v1/tags", { params: { query: { search: "pref", sort: "name", limit: 10 } } }));
  expect(tags.meta.total === 1 && tags.data[0]?.id === tag.id, "the tag is listed");
  expect((await ok(api.GET("/v1/tags/{id}", { params: { path: { id: tag.id } } }))).data.name === "preferences", "tag");
  const described = await ok(
    api.PATCH("/v1/tags/{id}", {
      params: { path: { id: tag.id } },
      body: { description: "What the user likes and dislikes" },
    }),
  );
  expect(described.data.description === "What the user likes and dislikes", "the tag is described");

  // One conversation: a root for the thread, one memory per message.
  const thread = { conversation_id: "conv-1", channel: "web" };
  const conversation = (
    await ok(
      api.POST("/v1/memories", {
        body: { content: "Chat with Ada about travel", content_type: "conversation", tier: "long", metadata: thread },
      }),
    )
  ).data;
  const messages: string[] = [];
  for (const { role, content } of [
    { role: "user", content: "I am planning a trip to Lisbon in May." },
    { role: "assistant", content: "Lisbon in May is lovely; do you prefer trams or walking?" },
    { role: "user", content: "Walking, and I always drink green tea in the morning." },
  ]) {
    const message = await ok(
      api.POST("/v1/memories", {
        body: {
          content,
          parent_memory_id: conversation.id,
          tier: "short",
          external_id: `conv-1-${messages.length + 1}`,
          metadata: { ...thread, role },
        },
      }),
    );
    messages.push(message.data.id);
  }
  const [question, , preference] = messages;
  if (question === undefined || preference === undefined) throw new Error("the thread has its messages");

  const page = await ok(
    api.GET("/v1/memories", {
      params: { query: { parent_memory_id: conversation.id, sort: "created_at", order: "asc", limit: 2 } },
    }),
  );
  expect(page.meta.total === 3 && page.meta.has_more && page.data[0]?.id === question, "the thread lists in order");
  const got = await ok(api.GET("/v1/memories/{id}", { params: { path: { id: preference } } }));
  expect(got.data.metadata.role === "user" && got.data.parent_memory_id === conversation.id, "a message reads back");
  const fact = await ok(
    api.PATCH("/v1/memories/{id}", {
      params: { path: { id: preference } },
      body: { memory_nature: "semantic", tier: "long", metadata: { ...thread, role: "user", topic: "drinks" } },
    }),
  );
  expect(fact.data.memory_nature === "semantic" && fact.data.metadata.topic === "drinks", "the message is a fact");

  const tagged = await ok(
    api.POST("/v1/memories/{id}/tags", { params: { path: { id: preference } }, body: { tag_ids: [tag.id] } }),
  );
  expect(tagged.data.added === 1, "the preference is tagged");
  const preferences = await ok(api.GET("/v1/memories", { params: { query: { tag_id: [tag.id], root: false } } }));
  expect(preferences.data.length === 1 && preferences.data[0]?.id === preference, "the tag filter finds it");

  // The people and places the conversation is about.
  const ada = (await ok(api.POST("/v1/entities", { body: { name: "Ada", type: "person", memory_ids: [question] } })))
    .data;
  const lisbon = await ok(
    api.POST("/v1/entities", { body: { name: "Lisbon", type: "place", metadata: { country: "PT" } } }),
  );
  const people = await ok(api.GET("/v1/entities", { params: { query: { type: "person" } } }));
  expect(people.data.length === 1 && people.data[0]?.id === ada.id, "entities filter by type");
  const linked = await ok(
    api.POST("/v1/entities/{id}/memories", {
      params: { path: { id: lisbon.data.id } },
      body: { memory_ids: [question, preference] },
    }),
  );
  expect(linked.data.memory_count === 2, "the place is linked to two messages");
  const renamed = await ok(
    api.PATCH("/v1/entities/{id}", {
      params: { path: { id: ada.id } },
      body: { name: "Ada Lovelace", description: "The user" },
    }),
  );
  expect(renamed.data.name === "Ada Lovelace", "the person is renamed");
  expect((await ok(api.GET("/v1/entities/{id}", { params: { path: { id: ada.id } } }))).data.memory_count === 1, "ada");

  // What the assistant needs to answer the next message.
  const found = await ok(
    api.POST("/v1/search", {
      body: { query: "what does the user drink in the morning", limit: 5, metadata: { conversation_id: "conv-1" } },
    }),
  );
  expect(found.meta.total === found.data.results.length, "search counts its results");
  const context = await ok(
    api.POST("/v1/context", {
      body: { query: "morning drink", max_tokens: 500, format: "markdown", entity_id: lisbon.data.id },
    }),
  );
  expect(context.data.token_count <= 500, "the context fits its budget");

  // Clean-up: unlink, untag, delete the thread.
  const unlinked = await ok(
    api.DELETE("/v1/entities/{id}/memories/{memoryId}", {
      params: { path: { id: lisbon.data.id, memoryId: question } },
    }),
  );
  expect(unlinked.data.removed, "the question is unlinked");
  const detached = await ok(
    api.DELETE("/v1/memories/{id}/tags/{tagId}", { params: { path: { id: preference, tagId: tag.id } } }),
  );
  expect(detached.data.removed, "the tag is detached");
  await ok(api.DELETE("/v1/entities/{id}", { params: { path: { id: ada.id } } }));
  await ok(api.DELETE("/v1/tags/{id}", { params: { path: { id: tag.id } } }));
  const deleted = await ok(
    api.DELETE("/v1/memories/{id}", { params: { path: { id: conversation.id }, query: { cascade: true } } }),
  );
  expect(deleted.data.deleted_count === 4, "the thread is deleted whole");
  const gone = await api.GET("/v1/memories/{id}", { params: { path: { id: preference } } });
  expect(gone.response.status === 404 && gone.error?.error.code === "NOT_FOUND", "a deleted memory is not found");

  // An earlier conversation imported in one call, safe to retry: its root and turns, each turn naming the root by
  // its index in the call; a turn without content is refused alone.
  const earlier = { conversation_id: "conv-0", channel: "web" };
  const importEarlier = () =>
    api.POST("/v1/memories/batch", {
      params: { header: { "Idempotency-Key": `import-${earlier.conversation_id}` } },
      body: {
        items: [
          { content: "Chat with Ada about Porto", content_type: "conversation", metadata: earlier },
          { content: "Porto was rainy, but the bookshops were worth it.", parent_ref: 0, metadata: earlier },
          { content: "", parent_ref: 0 },
        ],
      },
    });
  const imported = await ok(importEarlier());
  const [, turn, empty] = imported.data.items;
  expect(imported.data.created === 2 && !!turn && "data" in turn && !!empty && "error" in empty, "one turn refused");
  const retried = await importEarlier();
  expect(retried.response.headers.get("idempotent-replayed") === "true", "the retry replays the import");

  // A webhook that keeps another system in step with the memories (its receiver is not reachable from here:
  // the ping's attempts fail, which the deliveries show).
  const hook = await ok(
    api.POST("/v1/webhooks", {
      body: {
        url: "https://hooks.example.com/memory",
        events: ["memory.created", "memory.deleted"],
        description: "sync",
      },
    }),
  );
  expect(hook.data.secret.startsWith("whsec_") && hook.data.enabled, "the endpoint has a signing secret");
  const hookPath = { id: hook.data.id };
  const hooks = await ok(api.GET("/v1/webhooks", { params: { query: { limit: 10 } } }));
  expect(hooks.data.length === 1 && hooks.data[0]?.id === hook.data.id, "the endpoint is listed");
  const readHook = await ok(api.GET("/v1/webhooks/{id}", { params: { path: hookPath } }));
  expect(readHook.data.events.join() === "memory.created,memory.deleted", "the endpoint reads back");
  const paused = await ok(api.PATCH("/v1/webhooks/{id}", { params: { path: hookPath }, body: { enabled: false } }));
  expect(!paused.data.enabled && paused.data.disabled_reason === "manual", "the endpoint is paused");
  const resecret = await ok(api.POST("/v1/webhooks/{id}/rotate-secret", { params: { path: hookPath }, body: {} }));
  expect(resecret.data.secret !== hook.data.secret && !!resecret.data.previous_secret_expires_at, "a new secret");
  const ping = await ok(api.POST("/v1/webhooks/{id}/test", { params: { path: hookPath }, body: {} }));
  expect(ping.data.event_type === "ping" && ping.data.webhook_id === hook.data.id, "a ping is on its way");
  const sent = await ok(api.GET("/v1/webhooks/{id}/deliveries", { params: { path: hookPath, query: { limit: 10 } } }));
  expect(
    sent.data.some((d) => d.id === ping.data.id),
    "the ping is listed",
  );
  const again = await ok(
    api.POST("/v1/webhooks/{id}/deliveries/{deliveryId}/retry", {
      params: { path: { id: hook.data.id, deliveryId: ping.data.id } },
      body: {},
    }),
  );
  expect(again.data.id === ping.data.id, "the ping is sent again");
  expect((await ok(api.DELETE("/v1/webhooks/{id}", { params: { path: hookPath } }))).data.deleted, "no more hook");

  // Administration, with the tenant's own key: a read-only key for a dashboard, revoked again, and usage.
  const dashboard = await ok(api.POST("/v1/keys", { body: { name: "dashboard", scopes: ["memories:read"] } }));
  const keys = await ok(api.GET("/v1/keys", { params: { query: { limit: 10 } } }));
  expect(
    keys.data.some((k) => k.id === dashboard.data.id),
    "the new key is listed",
  );
  const path = { id: dashboard.data.id };
  const read = await ok(api.GET("/v1/keys/{id}", { params: { path } }));
  expect(read.data.name === "dashboard", "the key reads back");
  const relabelled = await ok(api.PATCH("/v1/keys/{id}", { params: { path }, body: { name: "dashboard (read)" } }));
  expect(relabelled.data.name === "dashboard (read)", "the key is renamed");
  const rotated = await ok(api.POST("/v1/keys/{id}/rotate", { params: { path }, body: { grace_seconds: 60 } }));
  expect(rotated.data.id === path.id && rotated.data.key.startsWith("svc_"), "the key has a new secret");
  const revoked = await ok(api.DELETE("/v1/keys/{id}", { params: { path } }));
  expect(revoked.data.revoked, "the key is revoked");
  const token = await ok(
    api.POST("/v1/tokens", { body: { ttl_seconds: 600, restrict: { metadata: { user_id: "u_1" } }, rate_limit: 60 } }),
  );
  expect(token.data.token.startsWith("svc_tok_") && token.data.restrict?.metadata?.user_id === "u_1", "a token");
  const today = new Date().toISOString().slice(0, 10);
  const usage = await ok(api.GET("/v1/usage", { params: { query: { from: today, to: today } } }));
  expect(usage.data.from === today, "usage covers today");
  const settings = await ok(api.PATCH("/v1/tenant", { body: { retention: { short: 30 } } }));
  expect(settings.data.retention.short === 30, "short memories live 30 days by default");
  const current = await ok(api.GET("/v1/tenant"));
  expect(current.data.updated_at === settings.data.updated_at, "the tenant's settings read back");
}

/** The body of a success; anything else ends the scenario with what the server said. */
async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (data === undefined) throw new Error(`${response.status} ${response.url}: ${JSON.stringify(error)}`);
  return data;
}

function expect(condition: boolean | undefined, what: string): void {
  if (!condition) throw new Error(`scenario: ${what}`);
}
