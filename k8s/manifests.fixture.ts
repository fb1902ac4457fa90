import { join, resolve } from "node:path";
import { defaultRenderer, render, type K8sObject } from "./render";
import { workloads } from "./rules";
import type { Endpoint } from "./netpol";

/** Shared by the k8s/*.test.ts files: the rendered targets and lookups into them. */
export const K8S = import.meta.dir;
export const REPO = resolve(K8S, "..");
export const APP = ["gateway", "keys", "memories", "tags", "search", "webhooks"];
export const SERVICES = APP.filter((n) => n !== "gateway");
export const SECRET = "memory-service-secrets";
export const RENDERER = defaultRenderer();
export const TARGETS = { base: "base", dev: "overlays/dev", prod: "overlays/prod" } as const;
export type Target = keyof typeof TARGETS;

const cache = new Map<Target, K8sObject[]>();
/** A fresh copy of a rendered target (renders once per target). */
export function objects(t: Target): K8sObject[] {
  if (!cache.has(t)) cache.set(t, render(join(K8S, TARGETS[t]), RENDERER));
  return structuredClone(cache.get(t)!);
}
export const get = (objs: K8sObject[], kind: string, name: string) => {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`${kind}/${name} not rendered`);
  return o as K8sObject & { spec: any; data?: any; stringData?: any };
};
export const podOf = (objs: K8sObject[], name: string): Endpoint => {
  const w = workloads(objs).find((x) => x.obj.metadata.name === name);
  if (!w) throw new Error(`no workload ${name}`);
  return { pod: w.labels, namespace: w.namespace };
};
export const mainContainer = (objs: K8sObject[], name: string) =>
  get(objs, "Deployment", name).spec.template.spec.containers[0];
export const OUTSIDE: Endpoint = { ip: "203.0.113.7" };
/** The scraper the gateway-metrics-ingress policy admits. */
export const PROMETHEUS: Endpoint = { pod: { "app.kubernetes.io/name": "prometheus" }, namespace: "monitoring" };
