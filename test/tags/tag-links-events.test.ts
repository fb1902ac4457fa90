import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type NatsConnection } from "nats";
import { testStack } from "../harness";
import { tenant } from "../memories/memory-helpers";
import { memory, tag } from "./tag-helpers";

/** What others see of a link change: the tags_changed event, and search filters at once. */

describe("events", () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: (await testStack()).natsUrl.split(",") });
  });
  afterAll(async () => {
    await nc?.close();
  });

  const lastTagsChanged = async () => {
    const msg = await (await nc.jetstreamManager()).streams.getMessage("EVENTS", {
      last_by_subj: "events.memory.tags_changed",
    });
    return msg.json<{
      type: string;
      memory_id: string;
      version: number;
      memory: { tag_ids: string[]; version: number };
    }>();
  };

  test("each committed link change publishes memory.tags_changed with the new tags and a higher version", async () => {
    const { api } = await tenant();
    const m = await memory(api);
    const t = await tag(api, "evented");
    await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] });
    const e1 = await lastTagsChanged();
    expect(e1).toMatchObject({ type: "tags_changed", memory_id: m, memory: { tag_ids: [t.id] } });
    expect(e1.memory.version).toBe(e1.version);
    await api.delete(`/v1/memories/${m}/tags/${t.id}`);
    const e2 = await lastTagsChanged();
    expect(e2).toMatchObject({ type: "tags_changed", memory_id: m, memory: { tag_ids: [] } });
    expect(e2.version).toBeGreaterThan(e1.version);
  });
});

describe("search sees link changes at once", () => {
  test("the tags filter of search finds a memory right after attach, and not after detach", async () => {
    const { api } = await tenant();
    const m = await memory(api, "searchable tagged memory");
    await memory(api, "untagged memory");
    const t = await tag(api, "findme");
    const search = async () => {
      const res = await api.post("/v1/search", { query: "*", tags: [t.id], limit: 10, threshold: 0 });
      expect(res.status).toBe(200);
      return (res.body.data.results as { id: string }[]).map((r) => r.id);
    };
    expect(await search()).toEqual([]);
    await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] });
    expect(await search()).toEqual([m]);
    await api.delete(`/v1/memories/${m}/tags/${t.id}`);
    expect(await search()).toEqual([]);
  });
});
