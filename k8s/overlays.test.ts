import { describe, expect, test } from "bun:test";
import { canConnect } from "./netpol";
import { APP, get, mainContainer, objects, OUTSIDE, podOf, PROMETHEUS, SECRET, SERVICES } from "./manifests.fixture";

/** What the dev and prod overlays change: namespaces, images, replicas, Redis and NATS, network. */

describe("k8s dev overlay", () => {
  const NS = "memory-service-dev";

  test("everything lives in the dev namespace, with dev images and 1..2 replicas", () => {
    const objs = objects("dev");
    for (const o of objs) expect(o.kind === "Namespace" ? o.metadata.name : o.metadata.namespace).toBe(NS);
    for (const name of APP) {
      expect(mainContainer(objs, name).image).toBe(`memory-service/${name}:dev`);
      expect([
        get(objs, "HorizontalPodAutoscaler", name).spec.minReplicas,
        get(objs, "HorizontalPodAutoscaler", name).spec.maxReplicas,
      ]).toEqual([1, 2]);
    }
  });

  test("Redis 8 StatefulSet with AOF on a PVC, and the URL the apps use points at its Service", () => {
    const objs = objects("dev");
    const redis = get(objs, "StatefulSet", "redis");
    expect(redis.spec.template.spec.containers[0].image).toBe("redis:8");
    expect(redis.spec.volumeClaimTemplates[0].metadata.name).toBe("data");
    const conf: string = get(objs, "ConfigMap", "redis-config").data["redis.conf"];
    expect(conf).toMatch(/^appendonly yes$/m);
    expect(conf).toMatch(/^maxmemory-policy noeviction$/m);
    expect(get(objs, "Secret", SECRET).stringData.REDIS_URL).toBe("redis://redis:6379");
    expect(get(objs, "Service", "redis").spec.ports[0].port).toBe(6379);
  });

  test("a 3-node NATS JetStream cluster: routes to every node, file store on a PVC, every node a client seed", () => {
    const objs = objects("dev");
    const nats = get(objs, "StatefulSet", "nats");
    expect(nats.spec.replicas).toBe(3);
    expect(nats.spec.template.spec.containers[0].image).toBe("nats:2.10-alpine");
    expect(get(objs, "Service", nats.spec.serviceName).spec.clusterIP).toBe("None");
    const conf: string = get(objs, "ConfigMap", "nats-config").data["nats.conf"];
    expect(conf).toContain("store_dir: /data");
    for (const i of [0, 1, 2]) {
      expect(conf).toContain(`nats://nats-${i}.nats:6222`);
      expect(get(objs, "Secret", SECRET).stringData.NATS_URL).toContain(`nats://nats-${i}.nats:4222`);
    }
    expect(get(objs, "PodDisruptionBudget", "nats").spec.maxUnavailable).toBe(1);
  });

  test("the dev admin key is a valid root key", () => {
    expect(get(objects("dev"), "Secret", SECRET).stringData.BOOTSTRAP_ADMIN_KEY).toMatch(
      /^svc_live_[A-Za-z0-9_-]{32}$/,
    );
  });

  test("network: clients → gateway; gateway and services → NATS and Redis; NATS routes; nothing else", () => {
    const objs = objects("dev");
    const nats = podOf(objs, "nats");
    const redis = podOf(objs, "redis");
    expect(canConnect(objs, OUTSIDE, podOf(objs, "gateway"), 3000)).toBe(true);
    expect(canConnect(objs, OUTSIDE, podOf(objs, "gateway"), 8081)).toBe(false);
    expect(canConnect(objs, PROMETHEUS, podOf(objs, "gateway"), 8081)).toBe(true);
    expect(canConnect(objs, { ...PROMETHEUS, namespace: NS }, podOf(objs, "gateway"), 8081)).toBe(false);
    for (const name of APP) {
      expect(canConnect(objs, podOf(objs, name), nats, 4222)).toBe(true);
      expect(canConnect(objs, podOf(objs, name), redis, 6379)).toBe(true);
      expect(canConnect(objs, podOf(objs, name), nats, 6222)).toBe(false);
      // Only the webhooks service reaches the internet (its own rules: webhooks.test.ts).
      expect(canConnect(objs, podOf(objs, name), { ip: "93.184.216.34" }, 443)).toBe(name === "webhooks");
    }
    expect(canConnect(objs, nats, nats, 6222)).toBe(true);
    for (const name of SERVICES) expect(canConnect(objs, OUTSIDE, podOf(objs, name), 3000)).toBe(false);
    expect(canConnect(objs, podOf(objs, "keys"), podOf(objs, "gateway"), 3000)).toBe(false);
    expect(canConnect(objs, OUTSIDE, redis, 6379)).toBe(false);
    expect(canConnect(objs, OUTSIDE, nats, 4222)).toBe(false);
    expect(canConnect(objs, redis, nats, 4222)).toBe(false);
    expect(canConnect(objs, nats, redis, 6379)).toBe(false);
  });
});

describe("k8s prod overlay", () => {
  test("no Secret is shipped (it is created out of band); Redis and NATS are external names", () => {
    const objs = objects("prod");
    expect(objs.filter((o) => o.kind === "Secret")).toEqual([]);
    expect(get(objs, "Service", "redis").spec.type).toBe("ExternalName");
    expect(get(objs, "Service", "nats").spec.type).toBe("ExternalName");
    expect(objs.filter((o) => o.kind === "StatefulSet")).toEqual([]);
  });

  test("the apps treat Redis as a Redis Cluster, without replica waits unless turned on", () => {
    const data = get(objects("prod"), "ConfigMap", "memory-service-config").data;
    expect([data.REDIS_CLUSTER, data.REDIS_WAIT_REPLICAS]).toEqual(["1", "0"]);
    expect(get(objects("dev"), "ConfigMap", "memory-service-config").data.REDIS_CLUSTER).toBeUndefined();
  });

  test("pinned registry images, at least 3 replicas, higher ceilings, PDB minAvailable 2", () => {
    const objs = objects("prod");
    for (const name of APP) {
      expect(mainContainer(objs, name).image).toBe(`registry.example.com/memory-service/${name}:0.1.0`);
      const hpa = get(objs, "HorizontalPodAutoscaler", name).spec;
      expect(hpa.minReplicas).toBe(3);
      expect(hpa.maxReplicas).toBe(name === "gateway" || name === "search" ? 20 : 12);
      expect(get(objs, "PodDisruptionBudget", name).spec).toMatchObject({ minAvailable: 2 });
      expect(get(objs, "PodDisruptionBudget", name).spec.maxUnavailable).toBeUndefined();
      expect(get(objs, "HorizontalPodAutoscaler", name).metadata.namespace).toBe("memory-service");
    }
  });

  test("network: apps reach the external NATS and Redis address blocks on their ports only", () => {
    const objs = objects("prod");
    for (const name of APP) {
      expect(canConnect(objs, podOf(objs, name), { ip: "198.51.100.10" }, 4222)).toBe(true);
      expect(canConnect(objs, podOf(objs, name), { ip: "192.0.2.10" }, 6379)).toBe(true);
      expect(canConnect(objs, podOf(objs, name), { ip: "192.0.2.10" }, 4222)).toBe(false);
      expect(canConnect(objs, podOf(objs, name), { ip: "203.0.113.5" }, 6379)).toBe(false);
    }
    expect(canConnect(objs, OUTSIDE, podOf(objs, "gateway"), 3000)).toBe(true);
    expect(canConnect(objs, OUTSIDE, podOf(objs, "gateway"), 22)).toBe(false);
    expect(canConnect(objs, OUTSIDE, podOf(objs, "gateway"), 8081)).toBe(false);
    expect(canConnect(objs, PROMETHEUS, podOf(objs, "gateway"), 8081)).toBe(true);
    expect(canConnect(objs, OUTSIDE, podOf(objs, "search"), 3000)).toBe(false);
  });
});
