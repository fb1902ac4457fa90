import openapiTS, { astToString } from "openapi-typescript";

/**
 * TypeScript types (`paths`, `components`) generated from an OpenAPI document by openapi-typescript.
 * This package holds it apart: it builds its output with TypeScript 5's compiler API, which the
 * repository's TypeScript 7 does not have.
 */
export async function generateTypes(document: object): Promise<string> {
  return astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
}
