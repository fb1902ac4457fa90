import { expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
// Non-test code: what runs in production or ships to users.
const AREAS = ["gateway", "services", "scripts", "clients/typescript/src", "dashboard/src"];
const SOURCE = /\.(ts|tsx|mts)$/;
const TEST_CODE = /\.(test|fixture)\.tsx?$|\.d\.ts$/;
// Every static specifier: `import … from`, `export … from`, bare `import "x"` and `import("x")`. Type-only imports
// count too: a type shared both ways still ties two modules' meanings together.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;

async function sourceFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const area of AREAS) {
    for await (const file of new Bun.Glob("**/*").scan({ cwd: resolve(ROOT, area), onlyFiles: true })) {
      if (file.split("/").includes("node_modules") || !SOURCE.test(file) || TEST_CODE.test(file)) continue;
      files.push(`${area}/${file}`);
    }
  }
  return files.sort();
}

/** Resolves a relative specifier the way the bundler resolution does; packages and aliases are not ours. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(ROOT, dirname(from), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, "");
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${base}/index.ts`, `${base}/index.tsx`];
  const hit = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  return hit && relative(ROOT, hit);
}

/** Strips comments so that an example in a doc comment is not taken for an import. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

async function importGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await sourceFiles()) {
    const text = code(await Bun.file(resolve(ROOT, file)).text());
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolveSpecifier(file, match[1]);
      if (target && !TEST_CODE.test(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Each strongly connected component with more than one module (or a self-import), shown as one cycle path. */
function cycles(graph: Map<string, string[]>): string[] {
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++];
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfImport = (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfImport) components.push(component);
      }
    }
  }
  return components.map((component) => cyclePath(graph, new Set(component)));
}

/**
 * A shortest path from the component's first module back to itself, e.g. "a.ts → b.ts → a.ts", and the other
 * modules of the component, which lie on further cycles through it.
 */
function cyclePath(graph: Map<string, string[]>, members: Set<string>): string {
  const start = [...members].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = previous.get(at)) path.push(at);
        const cycle = [...path.slice(0, 1), ...path.slice(1).reverse(), start];
        const others = [...members].filter((m) => !cycle.includes(m)).sort();
        return cycle.join(" → ") + (others.length > 0 ? ` (tied in the same knot: ${others.join(", ")})` : "");
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [...members].join(" ↔ ");
}

test("the import graph sees the modules and follows relative imports", async () => {
  const graph = await importGraph();
  expect(graph.size).toBeGreaterThan(100);
  expect(graph.get("gateway/main.ts")?.length).toBeGreaterThan(0);
});

test("cycle detection reports each cycle with its path", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts"]],
    ["c.ts", ["a.ts", "d.ts"]],
    ["d.ts", []],
    ["e.ts", ["e.ts"]],
    ["f.ts", ["g.ts", "h.ts"]],
    ["g.ts", ["f.ts"]],
    ["h.ts", ["f.ts"]],
  ]);
  expect(cycles(graph).sort()).toEqual([
    "a.ts → b.ts → c.ts → a.ts",
    "e.ts → e.ts",
    "f.ts → g.ts → f.ts (tied in the same knot: h.ts)",
  ]);
});

// A cycle makes the order modules load in matter and hides which module a type belongs to; shared types go to a
// leaf module that both sides import instead.
test("no import cycle in non-test code", async () => {
  expect(cycles(await importGraph())).toEqual([]);
});
