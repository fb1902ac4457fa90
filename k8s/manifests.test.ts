import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { schemaErrors } from "./schema";
import { containerRules, deploymentRules, networkRules, referenceRules } from "./rules";
import {
  APP,
  get,
  mainContainer,
  objects,
  RENDERER,
  REPO,
  SECRET,
  SERVICES,
  TARGETS,
  type Target,
} from "./manifests.fixture";

/** The rendered manifests of every target against the rules, and what the base must hold. */

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
