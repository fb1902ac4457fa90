/**
 * The two patch kinds k8s/render.ts applies. Both return a new object and leave their input alone.
 * Strategic merge is reduced to what our simple patches need: maps merge, `null` deletes a key,
 * lists with a Kubernetes merge key (containers, env, volumes…) merge by that key, every other
 * list is replaced. Any `$patch`/`$…` directive below the top level is refused rather than guessed.
 */

type Json = Record<string, unknown>;

export interface JsonOp {
  op: string;
  path: string;
  value?: unknown;
}

// The patchMergeKey of the list fields our manifests have (from the Kubernetes API types).
const MERGE_KEYS: Record<string, string> = {
  containers: "name",
  initContainers: "name",
  env: "name",
  volumes: "name",
  volumeMounts: "mountPath",
  ports: "containerPort",
  imagePullSecrets: "name",
};

const isMap = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => structuredClone(v);

export function strategicMerge(base: Json, patch: Json): Json {
  return mergeMaps(clone(base), patch, "");
}

function mergeMaps(base: Json, patch: Json, path: string): Json {
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith("$")) throw new Error(`strategic merge: directive ${key} at ${path || "/"} is not supported`);
    if (value === null) delete base[key];
    else if (isMap(value) && isMap(base[key])) base[key] = mergeMaps(base[key] as Json, value, `${path}/${key}`);
    else if (Array.isArray(value) && Array.isArray(base[key]) && MERGE_KEYS[key])
      base[key] = mergeList(base[key] as Json[], value as Json[], MERGE_KEYS[key]!, `${path}/${key}`);
    else base[key] = clone(value);
  }
  return base;
}

function mergeList(base: Json[], patch: Json[], mergeKey: string, path: string): Json[] {
  const out = [...base];
  for (const item of patch) {
    const i = out.findIndex((b) => b[mergeKey] === item[mergeKey]);
    if (i >= 0) out[i] = mergeMaps(out[i]!, item, `${path}/${String(item[mergeKey])}`);
    else out.push(clone(item));
  }
  return out;
}

/** RFC 6902 add, remove and replace (all our overlays need); other operations throw. */
export function applyJsonPatch(doc: Json, ops: JsonOp[]): Json {
  const out = clone(doc);
  for (const op of ops) {
    if (!["add", "remove", "replace"].includes(op.op)) throw new Error(`JSON patch: op "${op.op}" is not supported`);
    const tokens = op.path
      .split("/")
      .slice(1)
      .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
    const last = tokens.pop();
    if (last === undefined) throw new Error(`JSON patch: cannot ${op.op} the whole document`);
    let parent: unknown = out;
    for (const t of tokens) {
      parent = (parent as Record<string, unknown>)?.[t];
      if (parent === undefined || parent === null) throw new Error(`JSON patch: ${op.path} does not exist`);
    }
    if (Array.isArray(parent)) patchList(parent, last, op);
    else if (isMap(parent)) {
      if (op.op !== "add" && !(last in parent)) throw new Error(`JSON patch: ${op.path} does not exist`);
      if (op.op === "remove") delete parent[last];
      else parent[last] = clone(op.value);
    } else throw new Error(`JSON patch: ${op.path} is not inside a map or list`);
  }
  return out;
}

function patchList(list: unknown[], token: string, op: JsonOp) {
  if (op.op === "add" && token === "-") return void list.push(clone(op.value));
  const i = Number(token);
  const max = op.op === "add" ? list.length : list.length - 1;
  if (!Number.isInteger(i) || i < 0 || i > max) throw new Error(`JSON patch: ${op.path} is out of range`);
  if (op.op === "add") list.splice(i, 0, clone(op.value));
  else if (op.op === "remove") list.splice(i, 1);
  else list[i] = clone(op.value);
}
