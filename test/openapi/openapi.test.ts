import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { typesFor as generateTypes } from "../../scripts/sdk-types";
import { documentPath } from "../../gateway/rest/openapi";
import { restRoutes } from "../../gateway/rest/routes";
import { testStack } from "../harness";
import { runProcess } from "../process-helpers";
import type { Middleware } from "openapi-fetch";
import { answerChecker, type OpenApiDocument, operationsOf, recorder } from "./answers";

/**
 * The served OpenAPI document is one real tools accept: a 3.1 validator passes it, openapi-typescript
 * generates types from it, and a client written against those types alone (scenario.ts) type-checks, runs
 * against the live stack, calls every operation, and gets the answers the document describes.
 */
const ROOT = resolve(import.meta.dir, "../..");
const SCENARIO = resolve(import.meta.dir, "scenario.ts");

let doc: OpenApiDocument;
let baseUrl: string;
let rootKey: string;

beforeAll(async () => {
  const stack = await testStack();
  baseUrl = stack.baseUrl;
  rootKey = stack.adminKey;
  const res = await fetch(`${baseUrl}/docs/json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApiDocument;
});

describe("GET /docs/json", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  test("lists each route of the route table once, under its operationId", () => {
    const listed = [...operationsOf(doc)].map(([key, op]) => `${key} ${op.operationId}`).sort();
    const table = restRoutes.map((r) => `${r.method} ${documentPath(r)} ${r.operationId}`).sort();
    expect(listed).toEqual(table);
  });

  test("the HTML page at /docs loads Scalar and its starter from this origin (test/browser renders it)", async () => {
    const res = await fetch(`${baseUrl}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const scripts = [...(await res.text()).matchAll(/<script defer src="([^"]+)"><\/script>/g)].map((m) => m[1]);
    expect(scripts).toEqual([expect.stringMatching(/^\/dashboard\/assets\/scalar-/), expect.stringMatching(/docs-/)]);
    const starter = await (await fetch(baseUrl + scripts[1])).text();
    expect(starter).toContain('"/docs/json"');
  });
});

describe("a client generated from the document", () => {
  test("type-checks the scenario (openapi-typescript, then tsc --noEmit)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openapi-types-"));
    try {
      writeFileSync(join(dir, "api.d.ts"), await generateTypes(doc));
      const compilerOptions = {
        strict: true,
        noEmit: true,
        target: "ESNext",
        module: "ESNext",
        moduleResolution: "bundler",
        lib: ["ESNext", "DOM"],
        types: [],
        noUncheckedIndexedAccess: true,
        paths: { "memory-service-api": ["./api.d.ts"] },
      };
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: [SCENARIO] }));
      const { out, err, code } = await runProcess([
        join(ROOT, "node_modules/.bin/tsc"),
        "-p",
        join(dir, "tsconfig.json"),
      ]);
      expect(`${out}${err}`.trim()).toBe("");
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test("the scenario takes the generated types as they are: no cast, no any", () => {
    const code = readFileSync(SCENARIO, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "")
      .replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
    expect(code).not.toMatch(/\bany\b/);
    expect(code).not.toMatch(/\bas\b/);
    expect(code).not.toMatch(/[\w)\]]!(?!=)/);
  });

  test("runs against the live stack, calls every operation, and every answer is as documented", async () => {
    // Imported by a path tsc does not follow: the scenario's types exist only once generated (above).
    const scenario: { chatScenario: (baseUrl: string, key: string, observe: Middleware) => Promise<void> } =
      await import(SCENARIO);
    const { middleware, answers } = recorder();
    await scenario.chatScenario(baseUrl, rootKey, middleware);
    const check = answerChecker(doc);
    expect(answers.flatMap(check)).toEqual([]);
    const called = new Set(answers.map((a) => `${a.method} ${a.schemaPath}`));
    const uncalled = [...operationsOf(doc)].filter(([key]) => !called.has(key)).map(([, op]) => op.operationId);
    expect(uncalled).toEqual([]);
  }, 60_000);
});
