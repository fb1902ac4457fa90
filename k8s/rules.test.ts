import { describe, expect, test } from "bun:test";
import type { K8sObject } from "./render";
import { schemaErrors } from "./schema";
import { containerRules, deploymentRules, networkRules, referenceRules } from "./rules";
import { get, mainContainer, objects, SECRET, type Target } from "./manifests.fixture";

/** The rules of rules.ts and schema.ts catch broken manifests, each with a message naming the object. */

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
