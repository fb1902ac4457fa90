import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startStack } from "./stack/launch";

/**
 * `npm run sdk:types`: starts a private stack, reads its OpenAPI document and writes the client's generated
 * types (clients/typescript/src/generated/api.ts). test/sdk checks that the file matches the live document.
 */
const ROOT = resolve(import.meta.dir, "..");
export const GENERATED_TYPES = join(ROOT, "clients/typescript/src/generated/api.ts");

/** The generated text for a live document (the generator runs on the client package's own TypeScript 5). */
export async function typesFor(document: unknown): Promise<string> {
  const generator = join(ROOT, "clients/typescript/generate.mjs");
  const { generateTypes } = (await import(generator)) as { generateTypes(doc: unknown): Promise<string> };
  return generateTypes(document);
}

if (import.meta.main) {
  const dataDir = mkdtempSync(join(tmpdir(), "sdk-types-"));
  const stack = await startStack({ dataDir, env: { LOG_LEVEL: "warn" } });
  try {
    const document = await (await fetch(`${stack.baseUrl}/docs/json`)).json();
    await Bun.write(GENERATED_TYPES, await typesFor(document));
    console.log(`sdk:types: wrote ${GENERATED_TYPES}`);
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
