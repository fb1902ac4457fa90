import { expect, test } from "bun:test";
import { testStack } from "../harness";
import { GENERATED_TYPES, typesFor } from "../../scripts/sdk-types";

test("the client's generated types match the live OpenAPI document (regenerate: npm run sdk:types)", async () => {
  const stack = await testStack();
  const document = await (await fetch(`${stack.baseUrl}/docs/json`)).json();
  const expected = await typesFor(document);
  expect(expected).toContain('"/v1/memories/{id}"');
  expect(await Bun.file(GENERATED_TYPES).text()).toBe(expected);
}, 60_000);
