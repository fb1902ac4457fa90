import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { StatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import type { K8sObject } from "./render";

/** The kinds our manifests may use, each with its generated OpenAPI validator (kubernetes-models). */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "v1/Namespace": Namespace,
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "apps/v1/StatefulSet": StatefulSet,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
};

/** One line per object that fails its schema, or whose apiVersion/kind we have no schema for. */
export function schemaErrors(objects: K8sObject[]): string[] {
  const errors: string[] = [];
  for (const o of objects) {
    const id = `${o.kind}/${o.metadata?.name}`;
    const Model = MODELS[`${o.apiVersion}/${o.kind}`];
    if (!Model) {
      errors.push(`${id}: no schema for ${o.apiVersion} ${o.kind}`);
      continue;
    }
    try {
      new Model(o as never).validate();
    } catch (err) {
      errors.push(`${id}: ${(err as Error).message}`);
    }
  }
  return errors.sort();
}
