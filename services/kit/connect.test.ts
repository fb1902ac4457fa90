import { expect, test } from "bun:test";
import { connectRedis, isDependencyDown, redisTarget } from "./connect";
import { createLogger } from "./log";

test("one URL is one Redis; a list, or the cluster flag, names seed nodes of a Redis Cluster", () => {
  expect(redisTarget("redis://10.0.0.1:6380")).toEqual({
    cluster: false,
    nodes: [{ host: "10.0.0.1", port: 6380 }],
    username: undefined,
    password: undefined,
    tls: false,
  });
  expect(redisTarget("redis://10.0.0.1").nodes).toEqual([{ host: "10.0.0.1", port: 6379 }]);
  expect(redisTarget("redis://10.0.0.1:7000", true).cluster).toBe(true);
  const list = redisTarget("rediss://app:s%40cret@a:7000, b:7001,rediss://c:7002");
  expect(list).toEqual({
    cluster: true,
    nodes: [
      { host: "a", port: 7000 },
      { host: "b", port: 7001 },
      { host: "c", port: 7002 },
    ],
    username: "app",
    password: "s@cret",
    tls: true,
  });
});

test("connectRedis builds a Cluster client exactly for a cluster target", () => {
  const log = createLogger({}, "error");
  const clients = [
    connectRedis("redis://127.0.0.1:1", log),
    connectRedis("redis://127.0.0.1:1,127.0.0.1:2", log),
    connectRedis("redis://127.0.0.1:1", log, "x", { cluster: true }),
  ];
  expect(clients.map((c) => c.isCluster)).toEqual([false, true, true]);
  for (const c of clients) c.disconnect();
});

test("a cluster without a primary for a slot, or out of retries, counts as a dependency down (503)", () => {
  for (const message of [
    "CLUSTERDOWN The cluster is down",
    "Too many Cluster redirections. Last error: Error: Connection is closed.",
    "None of startup nodes is available",
    "Failed to refresh slots cache.",
  ])
    expect(isDependencyDown(new Error(message))).toBe(true);
  expect(isDependencyDown(new Error("CROSSSLOT Keys in request don't hash to the same slot"))).toBe(false);
});
