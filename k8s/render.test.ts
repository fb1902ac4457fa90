import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadKustomization, renderWithKubectl, type K8sObject } from "./render";
import { applyJsonPatch, strategicMerge } from "./patch";
import { K8S, TARGETS } from "./manifests.fixture";

/** k8s/render.ts: the kustomization loader, its refusals, and the patches it applies. */
const HAS_KUBECTL = Bun.which("kubectl") !== null;

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
