import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { servedScalarBundle } from "./scalar-bundle";

const STANDALONE = resolve(import.meta.dir, "../../node_modules/@scalar/api-reference/dist/browser/standalone.js");

test("the installed Scalar bundle's eval probe is answered without eval, and nothing else changes", () => {
  const original = new Uint8Array(readFileSync(STANDALONE));
  const { body, probeAnswered } = servedScalarBundle(original);
  expect(probeAnswered).toBe(true);
  const served = new TextDecoder().decode(body);
  expect(served).not.toContain("new Function(");
  expect(original.length - body.length).toBe('try{return new Function(""),!0}catch(e){return!1}'.length - 8);
});

test("a bundle without the probe, or with it twice, is served as it is", () => {
  const probe = 'try{return new Function(""),!0}catch(e){return!1}';
  for (const text of ["let a=1;", `${probe};${probe}`]) {
    const original = new TextEncoder().encode(text);
    expect(servedScalarBundle(original)).toEqual({ body: original, probeAnswered: false });
  }
});
