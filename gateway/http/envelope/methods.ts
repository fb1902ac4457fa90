/** A route as the router holds it: `GET /v1/tags/:id`. */
export interface RouteShape {
  method: string;
  path: string;
}

/**
 * Which methods a path is served with, from the app's route list: for a 405 with its `Allow`
 * header where a router only says "not found". `:name` matches one segment, `*` the rest; a GET
 * route also serves HEAD. Routes served with every method (`ALL`) never answer 405 and are left out.
 */
export function methodTable(routes: readonly RouteShape[]): (path: string) => string[] {
  const templates = new Map<string, { segments: string[]; methods: Set<string> }>();
  for (const r of routes) {
    const method = r.method.toUpperCase();
    if (method === "ALL") continue;
    const entry = templates.get(r.path) ?? { segments: segmentsOf(r.path), methods: new Set<string>() };
    entry.methods.add(method);
    if (method === "GET") entry.methods.add("HEAD");
    templates.set(r.path, entry);
  }
  const shapes = [...templates.values()];
  return (path) => {
    const segments = segmentsOf(path);
    const allowed = new Set<string>();
    for (const shape of shapes) if (matches(shape.segments, segments)) for (const m of shape.methods) allowed.add(m);
    return [...allowed].sort();
  };
}

const segmentsOf = (path: string) => path.split("/").filter((s) => s !== "");

function matches(template: string[], path: string[]): boolean {
  for (let i = 0; i < template.length; i++) {
    const t = template[i]!;
    if (t === "*") return true;
    if (i >= path.length || (t[0] !== ":" && t !== path[i])) return false;
  }
  return template.length === path.length;
}
