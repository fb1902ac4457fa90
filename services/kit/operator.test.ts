import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeStackRecord } from "./local-stack";
import { oneLine, stackTarget } from "./operator";

const root = mkdtempSync(join(tmpdir(), "operator-"));
const list = join(root, "stacks");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A stack record in a data directory of its own, with its admin key file. */
function recordedStack(pid: number, redisPort = 6379) {
  const dataDir = mkdtempSync(join(root, "data-"));
  writeFileSync(join(dataDir, "admin-key"), "svc_live_local\n");
  writeStackRecord(
    {
      pid,
      started_at: new Date().toISOString(),
      data_dir: dataDir,
      base_url: "http://127.0.0.1:3900",
      redis_url: `redis://127.0.0.1:${redisPort}`,
      redis_cluster: false,
      nats_url: "nats://127.0.0.1:1",
      admin_key_file: join(dataDir, "admin-key"),
    },
    list,
  );
  return dataDir;
}
const failure = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return oneLine(err);
  }
  return "no failure";
};

test("the stack's gateway and admin key, said on a line; never the local key for a gateway named elsewhere", () => {
  const DATA_DIR = recordedStack(process.pid);
  const api = stackTarget({ DATA_DIR }).api();
  expect(api).toMatchObject({ baseUrl: "http://127.0.0.1:3900", key: "svc_live_local" });
  expect(api.keyNote).toContain(`tenant default (live) of http://127.0.0.1:3900, with the admin key in ${DATA_DIR}`);
  expect(stackTarget({ DATA_DIR, PORT: "3900" }).api().key).toBe("svc_live_local");
  expect(stackTarget({ DATA_DIR, MEMORY_SERVICE_API_KEY: "svc_live_mine" }).api()).toMatchObject({
    key: "svc_live_mine",
    keyNote: null,
  });
  expect(failure(() => stackTarget({ DATA_DIR, MEMORY_SERVICE_URL: "https://memory.example.com" }).api())).toBe(
    "Set MEMORY_SERVICE_API_KEY to a key with scope admin for https://memory.example.com.",
  );
  expect(failure(() => stackTarget({ DATA_DIR, PORT: "3901" }).api())).toContain("Set MEMORY_SERVICE_API_KEY");
});

test("no stack, or a killed one: one line saying what to start, or what to set instead", () => {
  const gone = recordedStack(Bun.spawnSync(["true"]).pid);
  expect(failure(() => stackTarget({ DATA_DIR: gone }).api())).toMatch(
    new RegExp(
      `^No running stack: the one of DATA_DIR=${gone} \\(pid \\d+\\) is gone; start it again with ` +
        `\`DATA_DIR=${gone} npm start\` \\(or set MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY\\)\\.$`,
    ),
  );
  const empty = mkdtempSync(join(root, "empty-"));
  expect(failure(() => stackTarget({ DATA_DIR: empty, PORT: "3900" }).api())).toStartWith("No running stack in");
  expect(failure(() => stackTarget({ DATA_DIR: empty }).api())).toBe(
    `No running stack in DATA_DIR=${empty}: start it with \`DATA_DIR=${empty} npm start\` ` +
      "(or set MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY).",
  );
});

test("a Redis or NATS that does not answer is one line naming it; one that listens is used", async () => {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  try {
    const DATA_DIR = recordedStack(process.pid, server.port);
    expect(await stackTarget({ DATA_DIR }).redis()).toEqual({
      url: `redis://127.0.0.1:${server.port}`,
      cluster: false,
    });
    await expect(stackTarget({ DATA_DIR }).nats()).rejects.toThrow(
      "NATS at nats://127.0.0.1:1 does not answer: is the stack still running? (or set NATS_URL)",
    );
    await expect(stackTarget({ REDIS_URL: "redis://127.0.0.1:1" }).redis()).rejects.toThrow(
      "Redis at redis://127.0.0.1:1 does not answer: check REDIS_URL",
    );
  } finally {
    server.stop(true);
  }
});

test("any other error is its message's first line", () => {
  expect(oneLine(new Error("first\n    at frame (file.ts:1:1)"))).toBe("first");
});
