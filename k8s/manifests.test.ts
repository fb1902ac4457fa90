import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { defaultRenderer, loadKustomization, render, renderWithKubectl, type K8sObject } from "./render";
import { applyJsonPatch, strategicMerge } from "./patch";
import { schemaErrors } from "./schema";
import { containerRules, deploymentRules, networkRules, referenceRules, workloads } from "./rules";
import { canConnect, type Endpoint } from "./netpol";

const K8S = import.meta.dir;
const REPO = resolve(K8S, "..");
const APP = ["gateway", "keys", "memories", "tags", "search", "webhooks"];
const SERVICES = APP.filter((n) => n !== "gateway");
const SECRET = "memory-service-secrets";
const RENDERER = defaultRenderer();
const HAS_KUBECTL = Bun.which("kubectl") !== null;
const TARGETS = { base: "base", dev: "overlays/dev", prod: "overlays/prod" } as const;
type Target = keyof typeof TARGETS;

const cache = new Map<Target, K8sObject[]>();
/** A fresh copy of a rendered target (renders once per target). */
function objects(t: Target): K8sObject[] {
  if (!cache.has(t)) cache.set(t, render(join(K8S, TARGETS[t]), RENDERER));
  return structuredClone(cache.get(t)!);
}
const get = (objs: K8sObject[], kind: string, name: string) => {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`${kind}/${name} not rendered`);
  return o as K8sObject & { spec: any; data?: any; stringData?: any };
};
const podOf = (objs: K8sObject[], name: string): Endpoint => {
  const w = workloads(objs).find((x) => x.obj.metadata.name === name);
  if (!w) throw new Error(`no workload ${name}`);
  return { pod: w.labels, namespace: w.namespace };
};
const mainContainer = (objs: K8sObject[], name: string) =>
  get(objs, "Deployment", name).spec.template.spec.containers[0];
const OUTSIDE: Endpoint = { ip: "203.0.113.7" };
/** The scraper the gateway-metrics-ingress policy admits. */
const PROMETHEUS: Endpoint = { pod: { "app.kubernetes.io/name": "prometheus" }, namespace: "monitoring" };

for (const target of Object.keys(TARGETS) as Target[]) {
  describe(`k8s ${target} rendered with ${RENDERER}`, () => {
    test("a Deployment, Service, HPA and PDB per component, plus ConfigMap and NetworkPolicies", () => {
      const objs = objects(target);
      for (const name of APP)
        for (const kind of ["Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"])
          expect(get(objs, kind, name).metadata.name).toBe(name);
      expect(get(objs, "ConfigMap", "memory-service-config").data.DATA_DIR).toBe("/tmp/data");
      expect(objs.filter((o) => o.kind === "NetworkPolicy").length).toBeGreaterThanOrEqual(4);
    });

    test("every object is valid against its Kubernetes schema", () => {
      expect(schemaErrors(objects(target))).toEqual([]);
    });

    test("every container has probes, requests and limits, and a locked-down security context", () => {
      expect(containerRules(objects(target))).toEqual([]);
    });

    test("every Deployment stops gracefully and has exactly one HPA (autoscaling/v2) and one PDB", () => {
      expect(deploymentRules(objects(target))).toEqual([]);
    });

    test("Services select pods; ConfigMaps, Secrets and keys that pods use exist", () => {
      expect(referenceRules(objects(target), target === "prod" ? [SECRET] : [])).toEqual([]);
    });

    test("NetworkPolicies: default deny, an allow policy for every pod, DNS for every pod", () => {
      expect(networkRules(objects(target))).toEqual([]);
    });
  });
}

describe("k8s base", () => {
  test("probes: gateway over HTTP (/healthz live, /readyz ready), services on their HEALTH_PORT probe server", () => {
    const objs = objects("base");
    const gw = mainContainer(objs, "gateway");
    expect([gw.startupProbe.httpGet.path, gw.livenessProbe.httpGet.path, gw.readinessProbe.httpGet.path]).toEqual([
      "/healthz",
      "/healthz",
      "/readyz",
    ]);
    expect(gw.ports).toEqual([
      { name: "http", containerPort: 3000, protocol: "TCP" },
      { name: "metrics", containerPort: 8081, protocol: "TCP" },
    ]);
    for (const name of SERVICES) {
      const c = mainContainer(objs, name);
      expect(c.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "health" });
      expect(c.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "health" });
      expect(c.ports).toEqual([{ name: "health", containerPort: 8081 }]);
      expect(get(objs, "Service", name).spec.clusterIP).toBe("None");
    }
  });

  test("only the keys service sees BOOTSTRAP_ADMIN_KEY; everything sees REDIS_URL and NATS_URL from the Secret", () => {
    const objs = objects("base");
    expect(Object.keys(get(objs, "Secret", SECRET).stringData).sort()).toEqual([
      "BOOTSTRAP_ADMIN_KEY",
      "NATS_URL",
      "REDIS_URL",
    ]);
    for (const name of APP) {
      const env = mainContainer(objs, name)
        .env.filter((e: any) => e.valueFrom?.secretKeyRef)
        .map((e: any) => e.name);
      expect(env).toEqual(
        name === "keys" ? ["REDIS_URL", "NATS_URL", "BOOTSTRAP_ADMIN_KEY"] : ["REDIS_URL", "NATS_URL"],
      );
    }
  });

  test("the search service gets the model's memory (1 GiB limit) and a longer startup budget", () => {
    const objs = objects("base");
    const search = mainContainer(objs, "search");
    expect(search.resources.limits.memory).toBe("1Gi");
    const budget = (c: any) => c.startupProbe.periodSeconds * c.startupProbe.failureThreshold;
    expect(budget(search)).toBeGreaterThan(budget(mainContainer(objs, "keys")));
  });

  test("Prometheus scrapes the gateway's /metrics on its internal port (HEALTH_PORT), not the API port", () => {
    const objs = objects("base");
    const pod = get(objs, "Deployment", "gateway").spec.template;
    const scrape = { "prometheus.io/scrape": "true", "prometheus.io/port": "8081", "prometheus.io/path": "/metrics" };
    expect(pod.metadata.annotations).toEqual(scrape);
    expect(get(objs, "ConfigMap", "memory-service-config").data.HEALTH_PORT).toBe(scrape["prometheus.io/port"]);
    expect(mainContainer(objs, "gateway").envFrom).toContainEqual({ configMapRef: { name: "memory-service-config" } });
    expect(readFileSync(join(REPO, "gateway/main.ts"), "utf8")).toMatch(
      /serveMetrics\(\s*metrics,\s*config\.HEALTH_PORT\b/,
    );
    const annotated = SERVICES.filter((n) => get(objs, "Deployment", n).spec.template.metadata.annotations);
    expect(annotated).toEqual([]); // services serve no /metrics there
  });

  test("the probe port is the one the services' probe server listens on (HEALTH_PORT in the ConfigMap)", () => {
    expect(get(objects("base"), "ConfigMap", "memory-service-config").data.HEALTH_PORT).toBe("8081");
    // Whitespace-tolerant: the formatter may wrap the call.
    expect(readFileSync(join(REPO, "services/kit/runtime.ts"), "utf8")).toMatch(
      /startProbeServer\(\s*config\.HEALTH_PORT\b/,
    );
  });
});

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

describe("k8s rules catch broken manifests", () => {
  const broken = (mutate: (objs: K8sObject[]) => void, t: Target = "dev") => {
    const objs = objects(t);
    mutate(objs);
    return objs;
  };

  test("a missing probe, limit or security setting", () => {
    const objs = broken((o) => {
      const c = mainContainer(o, "tags");
      delete c.readinessProbe;
      delete c.resources.limits.memory;
      c.securityContext.readOnlyRootFilesystem = false;
      c.resources.requests.cpu = "2";
      get(o, "StatefulSet", "redis").spec.template.spec.securityContext.runAsNonRoot = false;
    });
    expect(containerRules(objs)).toEqual([
      "Deployment/tags container tags: cpu request 2 above limit 500m",
      "Deployment/tags container tags: no memory limit",
      "Deployment/tags container tags: no readinessProbe",
      "Deployment/tags container tags: root filesystem is not read-only",
      "StatefulSet/redis container redis: runAsNonRoot is not true",
    ]);
  });

  test("a grace period not above preStop + drain, a missing HPA or PDB, a blocking PDB", () => {
    const objs = broken((o) => {
      get(o, "Deployment", "keys").spec.template.spec.terminationGracePeriodSeconds = 30;
      o.splice(o.indexOf(get(o, "HorizontalPodAutoscaler", "tags")), 1);
      o.splice(o.indexOf(get(o, "PodDisruptionBudget", "search")), 1);
      get(o, "PodDisruptionBudget", "memories").spec = {
        minAvailable: 1,
        selector: { matchLabels: { "app.kubernetes.io/name": "memories" } },
      };
    });
    expect(deploymentRules(objs)).toEqual([
      "Deployment/keys: terminationGracePeriodSeconds 30 is not above preStop 10 s + drain 25 s",
      "Deployment/memories: PDB minAvailable 1 blocks drains at minReplicas 1",
      "Deployment/search: 0 PodDisruptionBudgets select its pods (want 1)",
      "Deployment/tags: 0 HorizontalPodAutoscalers target it (want 1)",
    ]);
  });

  test("no default deny, a pod without a policy of its own, a dangling reference", () => {
    const objs = broken((o) => {
      o.splice(o.indexOf(get(o, "NetworkPolicy", "default-deny-all")), 1);
      o.splice(o.indexOf(get(o, "NetworkPolicy", "redis-ingress")), 1);
      get(o, "Secret", SECRET).stringData = { REDIS_URL: "redis://redis:6379" };
    });
    expect(networkRules(objs)).toEqual([
      "StatefulSet/redis: no NetworkPolicy of its own selects its pods",
      "namespace memory-service-dev: no default-deny NetworkPolicy",
    ]);
    expect(referenceRules(objs).filter((l) => l.startsWith("Deployment/gateway"))).toEqual([
      "Deployment/gateway: Secret/memory-service-secrets has no key NATS_URL",
    ]);
  });

  test("a schema violation", () => {
    const objs = broken((o) => {
      mainContainer(o, "gateway").ports[0].containerPort = "http";
      get(o, "HorizontalPodAutoscaler", "keys").spec.maxReplicas = "many";
    });
    const errors = schemaErrors(objs);
    expect(errors.length).toBe(2);
    expect(errors[0]).toStartWith(
      "Deployment/gateway: data/spec/template/spec/containers/0/ports/0/containerPort must be integer",
    );
    expect(errors[1]).toStartWith("HorizontalPodAutoscaler/keys: data/spec/maxReplicas must be integer");
  });
});

describe("k8s/render.ts loader", () => {
  test.skipIf(!HAS_KUBECTL)("renders exactly what `kubectl kustomize` renders, for every target", () => {
    const key = (o: K8sObject) => `${o.kind}/${o.metadata.namespace ?? ""}/${o.metadata.name}`;
    const sorted = (objs: K8sObject[]) => objs.sort((a, b) => key(a).localeCompare(key(b)));
    for (const dir of Object.values(TARGETS)) {
      expect(sorted(loadKustomization(join(K8S, dir)))).toStrictEqual(sorted(renderWithKubectl(join(K8S, dir))));
    }
  });

  test("refuses kustomization fields and patches it does not implement", () => {
    const dir = mkdtempSync(join(tmpdir(), "k8s-render-"));
    try {
      writeFileSync(join(dir, "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: '1'}\n");
      const attempt = (k: string) => {
        writeFileSync(join(dir, "kustomization.yaml"), `resources: [cm.yaml]\n${k}`);
        return () => loadKustomization(dir);
      };
      expect(attempt("commonLabels: {a: b}\n")).toThrow('"commonLabels" is not supported by k8s/render.ts');
      expect(attempt("labels: [{pairs: {a: b}, includeSelectors: true}]\n")).toThrow("includeSelectors");
      expect(attempt("patches: [{patch: '[{op: move, from: /data, path: /x}]', target: {kind: ConfigMap}}]\n")).toThrow(
        'op "move" is not supported',
      );
      expect(attempt("patches: [{patch: '{apiVersion: v1, kind: ConfigMap, metadata: {name: b}}'}]\n")).toThrow(
        "matches nothing",
      );
      expect(
        attempt(
          "patches: [{patch: '{apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {$patch: replace}}'}]\n",
        ),
      ).toThrow("directive $patch");
      writeFileSync(join(dir, "kustomization.yaml"), "resources: [cm.yaml, cm.yaml]\n");
      expect(() => loadKustomization(dir)).toThrow("duplicate resource /ConfigMap//a");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("strategic merge: maps merge, null deletes, lists with a merge key merge by it, others are replaced", () => {
    const base = {
      spec: { a: 1, b: 2, args: ["x"], containers: [{ name: "c", image: "i", env: [{ name: "A", value: "1" }] }] },
    };
    const patch = {
      spec: {
        b: null,
        args: ["y"],
        containers: [
          { name: "c", env: [{ name: "B", value: "2" }] },
          { name: "d", image: "j" },
        ],
      },
    };
    expect(strategicMerge(base, patch)).toEqual({
      spec: {
        a: 1,
        args: ["y"],
        containers: [
          {
            name: "c",
            image: "i",
            env: [
              { name: "A", value: "1" },
              { name: "B", value: "2" },
            ],
          },
          { name: "d", image: "j" },
        ],
      },
    });
    expect(base.spec.b).toBe(2); // input untouched
  });

  test("JSON 6902: add, remove, replace; a missing path is an error", () => {
    const doc = { spec: { min: 1, max: 2, list: [1, 3] } };
    const ops = [
      { op: "replace", path: "/spec/min", value: 3 },
      { op: "remove", path: "/spec/max" },
      { op: "add", path: "/spec/list/1", value: 2 },
      { op: "add", path: "/spec/list/-", value: 4 },
      { op: "add", path: "/spec/a~1b", value: true },
    ];
    expect(applyJsonPatch(doc, ops)).toEqual({ spec: { min: 3, list: [1, 2, 3, 4], "a/b": true } });
    expect(() => applyJsonPatch(doc, [{ op: "replace", path: "/spec/nope", value: 1 }])).toThrow(
      "/spec/nope does not exist",
    );
    expect(() => applyJsonPatch(doc, [{ op: "remove", path: "/spec/list/5" }])).toThrow("out of range");
  });
});

describe("container images and docker-compose", () => {
  const dockerfile = readFileSync(join(REPO, "Dockerfile"), "utf8");
  const compose = parse(readFileSync(join(REPO, "docker-compose.yml"), "utf8"), { merge: true }) as {
    services: Record<string, any>;
  };

  test("the Dockerfile has a non-root target per component, running that component's entry point", () => {
    for (const name of APP) {
      const stage = dockerfile.split(/^FROM /m).find((s) => new RegExp(`^runtime AS ${name}\\s*$`, "m").test(s));
      expect(stage).toBeDefined();
      const entry = name === "gateway" ? "gateway/main.ts" : `services/${name}/main.ts`;
      expect(stage).toContain(`CMD ["bun", "${entry}"]`);
      // A stage may install packages as root, but must hand back to the app user before it runs.
      const users = [...stage!.matchAll(/^USER (.+)$/gm)].map((m) => m[1]);
      if (users.length > 0) expect(users.at(-1)).toBe("10001:10001");
    }
    expect(dockerfile).toMatch(/^FROM oven\/bun:1\.4[\w.-]* AS runtime$/m);
    expect(dockerfile).toMatch(/^USER 10001:10001$/m);
    expect(dockerfile).toContain("npm ci --omit=dev");
  });

  test("the search image carries the model's AVX-512 kernel, built from the repo's dense.c, and names it", () => {
    const stages = dockerfile.split(/^FROM /m);
    const kernel = stages.find((s) => /AS kernel\s*$/m.test(s));
    const search = stages.find((s) => /^runtime AS search\s*$/m.test(s))!;
    expect(kernel).toContain("COPY services/search/embedder/dense.c /src/dense.c");
    expect(kernel).toMatch(/gcc .*-mavx512f .*-shared .*-o \/src\/dense\.so \/src\/dense\.c/);
    const path = /^ENV EMBEDDINGS_KERNEL=(\S+)$/m.exec(search)?.[1];
    expect(path).toBeDefined();
    expect(search).toContain(`COPY --from=kernel /src/dense.so ${path}`);
  });

  test("compose runs Redis 8, NATS with JetStream and every component read-only as uid 10001", () => {
    expect(compose.services.redis.image).toBe("redis:8");
    expect(compose.services.nats.command).toContain("-js");
    for (const name of APP) {
      const svc = compose.services[name];
      expect(svc.build.target).toBe(name);
      expect(svc.image).toBe(`memory-service/${name}`);
      expect(svc.read_only).toBe(true);
      expect(svc.user).toBe("10001:10001");
      expect(svc.cap_drop).toEqual(["ALL"]);
      expect(svc.environment.REDIS_URL).toBe("redis://redis:6379");
      expect(svc.environment.NATS_URL).toBe("nats://nats:4222");
    }
    expect(compose.services.gateway.ports).toEqual(["3000:3000"]);
  });
});
