// Types for the client, generated from the service's OpenAPI document by openapi-typescript.
// Usage: node generate.mjs <document.json> <out.ts>   (the repo's `npm run sdk:types` feeds it the live one)
import { readFileSync, writeFileSync } from "node:fs";
import openapiTS, { astToString } from "openapi-typescript";

/** The generated file's text for a document: the same document always gives the same text. */
export async function generateTypes(document) {
  const ast = await openapiTS(document, { alphabetize: true, exportType: true });
  const header =
    "// Generated from the service's OpenAPI document by openapi-typescript (npm run sdk:types). Do not edit.\n";
  return header + astToString(ast);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error("usage: node generate.mjs <document.json> <out.ts>");
    process.exit(2);
  }
  writeFileSync(output, await generateTypes(JSON.parse(readFileSync(input, "utf8"))));
}
