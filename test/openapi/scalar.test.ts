import { expect, test } from "bun:test";
import { testStack } from "../harness";
import { scalarComplaints } from "./scalar-validation";

/**
 * The document passes the validator of the page that shows it: Scalar's, which is stricter than the generators'
 * (openapi.test.ts runs those). test/browser/docs-page.test.ts opens the page itself.
 */
test("Scalar's validation of the served /docs/json reports nothing", async () => {
  const stack = await testStack();
  const document = await (await fetch(`${stack.baseUrl}/docs/json`)).json();
  expect(await scalarComplaints(document)).toEqual([]);
}, 60_000);

test("the check sees a mismatch: a nullable field of a schema another schema names first", async () => {
  const document = {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {},
    components: {
      schemas: {
        List: {
          type: "object",
          properties: { items: { type: "array", items: { $ref: "#/components/schemas/Item" } } },
        },
        Item: { type: "object", properties: { note: { anyOf: [{ type: "string" }, { type: "null" }] } } },
      },
    },
  };
  expect(await scalarComplaints(document)).toEqual(["Expected union value @ /components/schemas/Item"]);
});
