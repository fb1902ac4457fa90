import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { applyJsonPatch, strategicMerge, type JsonOp } from "./patch";

/**
 * Renders a kustomization: with `kubectl kustomize` when kubectl is on PATH, else with the small
 * loader below, which implements only what our kustomizations use (resources, patches —
 * strategic merge or JSON 6902, optionally with a target —, namespace, labels, images) and throws
 * on anything else, so it can never silently render something different from kustomize.
 * render.test.ts checks that both renderers agree whenever kubectl is present.
 */

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [k: string]: unknown };
  [k: string]: unknown;
}

type Json = Record<string, unknown>;

export type Renderer = "kubectl" | "loader";

/** K8S_RENDERER=loader|kubectl forces one; otherwise kubectl when it is on PATH. */
export function defaultRenderer(): Renderer {
  const forced = process.env.K8S_RENDERER;
  if (forced === "loader" || forced === "kubectl") return forced;
  return Bun.which("kubectl") ? "kubectl" : "loader";
}

export function render(dir: string, renderer: Renderer = defaultRenderer()): K8sObject[] {
  return renderer === "kubectl" ? renderWithKubectl(dir) : loadKustomization(dir);
}

export function renderWithKubectl(dir: string): K8sObject[] {
  const out = Bun.spawnSync(["kubectl", "kustomize", dir], { stdout: "pipe", stderr: "pipe" });
  if (out.exitCode !== 0) throw new Error(`kubectl kustomize ${dir} failed: ${out.stderr.toString()}`);
  return parseDocs(out.stdout.toString(), `kubectl kustomize ${dir}`);
}

export function parseDocs(text: string, source: string): K8sObject[] {
  const docs = parseAllDocuments(text);
  const objects: K8sObject[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors[0]!.message}`);
    const value = doc.toJS();
    if (value === null || value === undefined) continue;
    objects.push(value as K8sObject);
  }
  return objects;
}

const SUPPORTED = new Set(["apiVersion", "kind", "resources", "patches", "namespace", "labels", "images"]);
// Enough for our manifests; kustomize knows the full list from the API server's discovery data.
const CLUSTER_SCOPED = new Set([
  "Namespace",
  "ClusterRole",
  "ClusterRoleBinding",
  "PersistentVolume",
  "StorageClass",
  "PriorityClass",
  "CustomResourceDefinition",
]);

interface Kustomization {
  resources?: string[];
  patches?: { path?: string; patch?: string; target?: Target }[];
  namespace?: string;
  labels?: {
    pairs: Record<string, string>;
    includeSelectors?: boolean;
    includeTemplates?: boolean;
    fields?: unknown;
  }[];
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
}

interface Target {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
}

export function loadKustomization(dirPath: string): K8sObject[] {
  const dir = resolve(dirPath);
  const file = ["kustomization.yaml", "kustomization.yml", "Kustomization"].map((f) => join(dir, f)).find(existsSync);
  if (!file) throw new Error(`${dir}: no kustomization.yaml`);
  const k = parse(readFileSync(file, "utf8")) as Kustomization & Json;
  for (const field of Object.keys(k))
    if (!SUPPORTED.has(field)) throw new Error(`${file}: "${field}" is not supported by k8s/render.ts`);

  let objects: K8sObject[] = [];
  for (const entry of k.resources ?? []) {
    const path = join(dir, entry);
    if (!existsSync(path)) throw new Error(`${file}: resource ${entry} not found`);
    objects.push(
      ...(statSync(path).isDirectory() ? loadKustomization(path) : parseDocs(readFileSync(path, "utf8"), path)),
    );
  }
  assertUnique(objects, file);

  // The order kustomize runs its built-in transformers in.
  for (const p of k.patches ?? []) objects = applyPatch(objects, p, dir, file);
  if (k.namespace) for (const o of objects) setNamespace(o, k.namespace);
  for (const l of k.labels ?? []) addLabels(objects, l, file);
  for (const image of k.images ?? [])
    for (const o of objects) for (const c of containersOf(o)) c.image = retag(c.image as string, image);
  return objects;
}

const idOf = (o: K8sObject) => {
  const group = o.apiVersion.split("/").length > 1 ? o.apiVersion.split("/")[0] : "";
  return `${group}/${o.kind}/${o.metadata.namespace ?? ""}/${o.metadata.name}`;
};

function assertUnique(objects: K8sObject[], file: string) {
  const seen = new Set<string>();
  for (const o of objects) {
    if (seen.has(idOf(o))) throw new Error(`${file}: duplicate resource ${idOf(o)}`);
    seen.add(idOf(o));
  }
}

function applyPatch(
  objects: K8sObject[],
  p: { path?: string; patch?: string; target?: Target },
  dir: string,
  file: string,
): K8sObject[] {
  const text = p.path ? readFileSync(join(dir, p.path), "utf8") : p.patch;
  if (!text) throw new Error(`${file}: a patch needs "path" or "patch"`);
  const parsed = parse(text) as unknown;
  if (Array.isArray(parsed)) {
    if (!p.target) throw new Error(`${file}: a JSON 6902 patch needs a target`);
    const hits = objects.filter((o) => matches(o, p.target!));
    if (hits.length === 0) throw new Error(`${file}: patch target ${JSON.stringify(p.target)} matches nothing`);
    return objects.map((o) =>
      hits.includes(o) ? (applyJsonPatch(o as unknown as Json, parsed as JsonOp[]) as unknown as K8sObject) : o,
    );
  }
  const patch = parsed as K8sObject;
  const target: Target = p.target ?? {
    kind: patch.kind,
    name: patch.metadata?.name,
    namespace: patch.metadata?.namespace,
  };
  const hits = objects.filter((o) => matches(o, target));
  if (hits.length === 0) throw new Error(`${file}: patch for ${patch.kind}/${patch.metadata?.name} matches nothing`);
  if ((patch as Json).$patch === "delete") return objects.filter((o) => !hits.includes(o));
  return objects.map((o) => {
    if (!hits.includes(o)) return o;
    // A targeted patch keeps the target's identity whatever name the patch document carries.
    const body = p.target ? { ...patch, metadata: { ...patch.metadata, name: o.metadata.name } } : patch;
    return strategicMerge(o as unknown as Json, body as unknown as Json) as unknown as K8sObject;
  });
}

function matches(o: K8sObject, t: Target): boolean {
  const [group, version] = o.apiVersion.includes("/") ? o.apiVersion.split("/") : ["", o.apiVersion];
  if (t.kind !== undefined && t.kind !== o.kind) return false;
  if (t.name !== undefined && t.name !== o.metadata.name) return false;
  if (t.namespace !== undefined && t.namespace !== o.metadata.namespace) return false;
  if (t.group !== undefined && t.group !== group) return false;
  if (t.version !== undefined && t.version !== version) return false;
  if (t.labelSelector !== undefined) {
    for (const term of t.labelSelector.split(",")) {
      const [key, value] = term.split("=").map((s) => s.trim());
      if (value === undefined) throw new Error(`labelSelector "${term}": only key=value terms are supported`);
      if (o.metadata.labels?.[key!] !== value) return false;
    }
  }
  return true;
}

function setNamespace(o: K8sObject, namespace: string) {
  // kustomize renames a Namespace object to the kustomization's namespace.
  if (o.kind === "Namespace") o.metadata.name = namespace;
  else if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = namespace;
}

const WORKLOADS = new Set(["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"]);

function addLabels(objects: K8sObject[], l: NonNullable<Kustomization["labels"]>[number], file: string) {
  if (l.includeSelectors || l.fields)
    throw new Error(`${file}: labels with includeSelectors or fields are not supported`);
  const add = (holder: Json) => {
    const meta = (holder.metadata ??= {}) as Json;
    meta.labels = { ...((meta.labels as Json) ?? {}), ...l.pairs };
  };
  for (const o of objects) {
    add(o);
    if (!l.includeTemplates) continue;
    const spec = o.spec as Json | undefined;
    if (WORKLOADS.has(o.kind) && spec?.template) add(spec.template as Json);
    if (o.kind === "StatefulSet") for (const t of (spec?.volumeClaimTemplates as Json[] | undefined) ?? []) add(t);
    if (o.kind === "CronJob") throw new Error(`${file}: labels on CronJob templates are not supported`);
  }
}

function containersOf(o: K8sObject): Json[] {
  const pod =
    o.kind === "Pod"
      ? (o.spec as Json)
      : (((o.spec as Json | undefined)?.template as Json | undefined)?.spec as Json | undefined);
  if (!pod) return [];
  return [...((pod.initContainers as Json[]) ?? []), ...((pod.containers as Json[]) ?? [])];
}

/** Splits "name[:tag][@digest]"; a colon before the last slash is a registry port. */
function splitImage(image: string): { name: string; tag?: string; digest?: string } {
  const [ref, digest] = image.split("@") as [string, string | undefined];
  const colon = ref.lastIndexOf(":");
  if (colon > ref.lastIndexOf("/")) return { name: ref.slice(0, colon), tag: ref.slice(colon + 1), digest };
  return { name: ref, digest };
}

function retag(image: string, rule: NonNullable<Kustomization["images"]>[number]): string {
  const cur = splitImage(image);
  if (cur.name !== rule.name) return image;
  const name = rule.newName ?? cur.name;
  if (rule.digest) return `${name}@${rule.digest}`;
  const tag = rule.newTag ?? cur.tag;
  return `${name}${tag ? `:${tag}` : ""}${!rule.newTag && cur.digest ? `@${cur.digest}` : ""}`;
}
