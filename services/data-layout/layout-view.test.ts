import { beforeEach, describe, expect, test } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../scripts/stack/redis.fixture";
import { createLogger } from "../kit/log";
import { CURRENT_LAYOUT, LayoutTooNewError } from "./layout";
import { createLayoutView } from "./layout-view";
import { createLayoutStore, type LayoutStore } from "./store";

const db = privateRedis("layout-view");
let redis: Redis;
let store: LayoutStore;
const log = createLogger({ test: "layout-view" }, "error");
const progressTo = (to: number) => ({
  step: "s",
  from: to - 1,
  to,
  cursor: "0",
  seen: 0,
  changed: 0,
  startedMs: 0,
  updatedMs: 0,
});

beforeEach(async () => {
  redis ??= await db.connect();
  store = createLayoutStore(redis);
  await redis.flushall();
  await redis.set("some:data", "1");
});

describe("the form writers write (expand/contract)", () => {
  test("the older layout's until a migration to the next is recorded, then the next one's", async () => {
    await store.setVersion(CURRENT_LAYOUT - 1);
    const view = await createLayoutView(store, log, 60_000);
    expect(view.writes(CURRENT_LAYOUT)).toBe(false);
    await store.saveProgress(progressTo(CURRENT_LAYOUT));
    await view.refresh();
    expect(view.writes(CURRENT_LAYOUT)).toBe(true);
    view.stop();
  });

  test("a view started while a migration is recorded writes the new form at once", async () => {
    await store.setVersion(CURRENT_LAYOUT - 1);
    await store.saveProgress(progressTo(CURRENT_LAYOUT));
    const view = await createLayoutView(store, log, 60_000);
    expect(view.writes(CURRENT_LAYOUT)).toBe(true);
    view.stop();
  });

  test("a newer layout is refused", async () => {
    await store.setVersion(CURRENT_LAYOUT + 1);
    await expect(createLayoutView(store, log)).rejects.toBeInstanceOf(LayoutTooNewError);
  });
});
