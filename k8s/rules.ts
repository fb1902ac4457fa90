import type { K8sObject } from "./render";
import { canConnect, policyTypes, selects, type Labels } from "./netpol";

/**
 * The operating rules every rendered overlay must follow. Each check returns one readable line
 * per violation (empty = fine), sorted so that both renderers' object orders give the same list; a
 * test shows every problem at once and the mutation tests can assert that a broken manifest is caught.
 */

/**
 * Seconds a process may spend draining after SIGTERM before it hard-stops
 * (gateway/main.ts, services/kit/runtime.ts).
 */
export const DRAIN_BUDGET_S = 25;
/** The uid our Dockerfile runs as. */
export const APP_UID = 10001;

type Json = Record<string, any>;

export interface Workload {
  id: string;
  obj: K8sObject;
  namespace: string;
  labels: Labels;
  pod: Json;
}

export function workloads(objects: K8sObject[]): Workload[] {
  return objects
    .filter((o) => o.kind === "Deployment" || o.kind === "StatefulSet")
    .map((o) => {
      const template = (o.spec as Json).template as Json;
      return {
        id: `${o.kind}/${o.metadata.name}`,
        obj: o,
        namespace: o.metadata.namespace ?? "default",
        labels: template.metadata?.labels ?? {},
        pod: template.spec,
      };
    });
}

const UNITS: Record<string, number> = {
  m: 1e-3,
  "": 1,
  k: 1e3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

export function quantity(q: string | number): number {
  const m = /^(\d+(?:\.\d+)?)(m|k|K|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(String(q));
  if (!m) throw new Error(`unsupported quantity ${q}`);
  return Number(m[1]) * UNITS[m[2] ?? ""]!;
}

/** Probes, requests/limits and a locked-down security context on every container of every workload. */
export function containerRules(objects: K8sObject[]): string[] {
  const out: string[] = [];
  for (const w of workloads(objects)) {
    const podSc: Json = w.pod.securityContext ?? {};
    for (const c of [...(w.pod.initContainers ?? []), ...w.pod.containers] as Json[]) {
      const where = `${w.id} container ${c.name}`;
      for (const probe of ["startupProbe", "livenessProbe", "readinessProbe"])
        if (!c[probe]) out.push(`${where}: no ${probe}`);
      for (const res of ["cpu", "memory"]) {
        const req = c.resources?.requests?.[res];
        const lim = c.resources?.limits?.[res];
        if (req === undefined) out.push(`${where}: no ${res} request`);
        if (lim === undefined) out.push(`${where}: no ${res} limit`);
        if (req !== undefined && lim !== undefined && quantity(req) > quantity(lim))
          out.push(`${where}: ${res} request ${req} above limit ${lim}`);
      }
      const sc: Json = c.securityContext ?? {};
      const eff = (k: string) => sc[k] ?? podSc[k];
      if (eff("runAsNonRoot") !== true) out.push(`${where}: runAsNonRoot is not true`);
      if (!eff("runAsUser")) out.push(`${where}: runAsUser is unset or 0`);
      if (!["RuntimeDefault", "Localhost"].includes(eff("seccompProfile")?.type))
        out.push(`${where}: no RuntimeDefault seccomp profile`);
      if (sc.allowPrivilegeEscalation !== false) out.push(`${where}: allowPrivilegeEscalation is not false`);
      if (sc.readOnlyRootFilesystem !== true) out.push(`${where}: root filesystem is not read-only`);
      if (sc.privileged === true) out.push(`${where}: privileged`);
      if (!(sc.capabilities?.drop ?? []).includes("ALL")) out.push(`${where}: capabilities not dropped (drop: [ALL])`);
      if ((sc.capabilities?.add ?? []).length > 0) out.push(`${where}: adds capabilities`);
    }
  }
  return out.sort();
}

const preStopSleep = (c: Json): number | undefined => {
  const pre = c.lifecycle?.preStop;
  if (pre?.sleep) return Number(pre.sleep.seconds);
  const cmd: unknown[] | undefined = pre?.exec?.command;
  return cmd?.[0] === "sleep" ? Number(cmd[1]) : undefined;
};

/** Our own Deployments: graceful stop, writable /tmp only, HPA and PDB each, uid of the image. */
export function deploymentRules(objects: K8sObject[]): string[] {
  const out: string[] = [];
  const hpas = objects.filter((o) => o.kind === "HorizontalPodAutoscaler");
  const pdbs = objects.filter((o) => o.kind === "PodDisruptionBudget");
  for (const w of workloads(objects).filter((w) => w.obj.kind === "Deployment")) {
    const spec = w.obj.spec as Json;
    const grace: number = w.pod.terminationGracePeriodSeconds ?? 30;
    if (w.pod.securityContext?.runAsUser !== APP_UID) out.push(`${w.id}: pod runAsUser is not ${APP_UID}`);
    if (spec.replicas !== undefined) out.push(`${w.id}: sets spec.replicas, which every apply would force on its HPA`);
    for (const c of w.pod.containers as Json[]) {
      const pause = preStopSleep(c);
      if (pause === undefined || pause < 5) out.push(`${w.id} container ${c.name}: no preStop pause of at least 5 s`);
      else if (grace <= pause + DRAIN_BUDGET_S)
        out.push(
          `${w.id}: terminationGracePeriodSeconds ${grace} is not above preStop ${pause} s + drain ${DRAIN_BUDGET_S} s`,
        );
      const tmp = (c.volumeMounts ?? []).find((m: Json) => m.mountPath === "/tmp");
      const vol = tmp && (w.pod.volumes ?? []).find((v: Json) => v.name === tmp.name);
      if (!vol?.emptyDir) out.push(`${w.id} container ${c.name}: /tmp is not an emptyDir`);
    }
    const hpa = hpas.filter((h) => {
      const ref = (h.spec as Json).scaleTargetRef;
      return (
        h.metadata.namespace === w.obj.metadata.namespace &&
        ref.kind === "Deployment" &&
        ref.name === w.obj.metadata.name
      );
    });
    if (hpa.length !== 1) out.push(`${w.id}: ${hpa.length} HorizontalPodAutoscalers target it (want 1)`);
    else {
      const h = hpa[0]!;
      const hs = h.spec as Json;
      if (h.apiVersion !== "autoscaling/v2") out.push(`${w.id}: its HPA is ${h.apiVersion}, not autoscaling/v2`);
      if (!(hs.minReplicas >= 1 && hs.maxReplicas >= hs.minReplicas))
        out.push(`${w.id}: HPA range ${hs.minReplicas}..${hs.maxReplicas} is invalid`);
    }
    const pdb = pdbs.filter(
      (p) => p.metadata.namespace === w.obj.metadata.namespace && selects((p.spec as Json).selector, w.labels),
    );
    if (pdb.length !== 1) out.push(`${w.id}: ${pdb.length} PodDisruptionBudgets select its pods (want 1)`);
    else {
      const ps = pdb[0]!.spec as Json;
      const minReplicas = (hpa[0]?.spec as Json | undefined)?.minReplicas ?? 1;
      // A budget the smallest deployment cannot satisfy blocks every node drain.
      if (ps.minAvailable !== undefined && Number(ps.minAvailable) >= minReplicas)
        out.push(`${w.id}: PDB minAvailable ${ps.minAvailable} blocks drains at minReplicas ${minReplicas}`);
      if (ps.maxUnavailable !== undefined && Number(ps.maxUnavailable) < 1)
        out.push(`${w.id}: PDB maxUnavailable ${ps.maxUnavailable} blocks drains`);
    }
  }
  return out.sort();
}

/**
 * Services select pods that exist; ConfigMaps/Secrets and their keys that pods use are rendered
 * (or declared external).
 */
export function referenceRules(objects: K8sObject[], externalSecrets: string[] = []): string[] {
  const out: string[] = [];
  const ws = workloads(objects);
  const find = (kind: string, name: string, ns: string) =>
    objects.find((o) => o.kind === kind && o.metadata.name === name && (o.metadata.namespace ?? "default") === ns);
  for (const s of objects.filter((o) => o.kind === "Service" && (o.spec as Json).type !== "ExternalName")) {
    const sel = (s.spec as Json).selector;
    if (
      !sel ||
      !ws.some((w) => w.namespace === (s.metadata.namespace ?? "default") && selects({ matchLabels: sel }, w.labels))
    )
      out.push(`Service/${s.metadata.name}: selects no pod`);
  }
  for (const w of ws) {
    const refs: { kind: string; name: string; key?: string }[] = [];
    for (const c of w.pod.containers as Json[]) {
      for (const e of c.envFrom ?? []) {
        if (e.configMapRef) refs.push({ kind: "ConfigMap", name: e.configMapRef.name });
        if (e.secretRef) refs.push({ kind: "Secret", name: e.secretRef.name });
      }
      for (const e of c.env ?? []) {
        const cm = e.valueFrom?.configMapKeyRef;
        const sk = e.valueFrom?.secretKeyRef;
        if (cm) refs.push({ kind: "ConfigMap", name: cm.name, key: cm.key });
        if (sk) refs.push({ kind: "Secret", name: sk.name, key: sk.key });
      }
    }
    for (const v of w.pod.volumes ?? []) if (v.configMap) refs.push({ kind: "ConfigMap", name: v.configMap.name });
    for (const r of refs) {
      if (r.kind === "Secret" && externalSecrets.includes(r.name)) continue;
      const target = find(r.kind, r.name, w.namespace);
      if (!target) out.push(`${w.id}: ${r.kind}/${r.name} is not rendered`);
      else if (r.key && !(r.key in { ...(target.data as Json), ...(target.stringData as Json) }))
        out.push(`${w.id}: ${r.kind}/${r.name} has no key ${r.key}`);
    }
  }
  return out.sort();
}

/** Default deny in every namespace with pods; every pod has its own allow policy and reaches DNS. */
export function networkRules(objects: K8sObject[]): string[] {
  const out: string[] = [];
  const policies = objects.filter((o) => o.kind === "NetworkPolicy");
  const isDenyAll = (p: K8sObject) => {
    const spec = p.spec as Json;
    const types = policyTypes(spec as never);
    return (
      Object.keys(spec.podSelector ?? {}).length === 0 &&
      types.includes("Ingress") &&
      types.includes("Egress") &&
      !spec.ingress?.length &&
      !spec.egress?.length
    );
  };
  const kubeDns = { pod: { "k8s-app": "kube-dns" }, namespace: "kube-system" };
  for (const ns of new Set(workloads(objects).map((w) => w.namespace))) {
    if (!policies.some((p) => (p.metadata.namespace ?? "default") === ns && isDenyAll(p)))
      out.push(`namespace ${ns}: no default-deny NetworkPolicy`);
  }
  for (const w of workloads(objects)) {
    const own = policies.filter(
      (p) =>
        !isDenyAll(p) &&
        (p.metadata.namespace ?? "default") === w.namespace &&
        Object.keys((p.spec as Json).podSelector).length > 0 &&
        selects((p.spec as Json).podSelector, w.labels),
    );
    if (own.length === 0) out.push(`${w.id}: no NetworkPolicy of its own selects its pods`);
    const self = { pod: w.labels, namespace: w.namespace };
    if (!canConnect(objects, self, kubeDns, 53, "UDP")) out.push(`${w.id}: cannot reach DNS`);
  }
  return out.sort();
}
