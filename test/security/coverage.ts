import { expect, test } from "bun:test";
import { newTenant } from "../api";
import { testStack } from "../harness";
import type { Operation } from "../../services/contract/op";
import * as contract from "./contract-ops";
import { GRAPHQL_CALLS } from "./graphql-calls";
import { unknownIds } from "./ids";
import { graphqlRootFields, mcpResourceTemplates, mcpToolNames } from "./operations";
import { REST_INPUTS, restRoutes } from "./rest-calls";
import { STREAM_CALLS, streamRouteNames } from "./stream-calls";
import { TOOL_ARGS } from "./tool-calls";

/**
 * The tables the security test is generated from name every operation: a route, field, tool or streamed route
 * added without an entry fails here, and so does an entry whose input the operation's own validator refuses.
 */
const sorted = (xs: Iterable<string>) => [...xs].sort();

export function coverageTests() {
  test("every REST route has a valid input", () => {
    expect(sorted(Object.keys(REST_INPUTS))).toEqual(sorted(restRoutes.map((r) => r.operationId)));
    for (const route of restRoutes) {
      const input = REST_INPUTS[route.operationId]!(unknownIds());
      expect(() => route.op.validate(input), route.operationId).not.toThrow();
    }
  });

  test("every GraphQL root field and MCP tool has an entry", async () => {
    const { baseUrl, adminKey } = await testStack();
    const { key } = await newTenant(baseUrl, adminKey);
    const fields = await graphqlRootFields(baseUrl, key);
    expect(sorted(Object.keys(GRAPHQL_CALLS))).toEqual(sorted(fields.map((f) => f.name)));
    expect(sorted(Object.keys(TOOL_ARGS))).toEqual(sorted(await mcpToolNames(baseUrl, key)));
    expect(sorted(Object.keys(STREAM_CALLS))).toEqual(sorted(streamRouteNames()));
    // A resource template is filled with one memory id: a template with another variable needs a table entry.
    for (const template of await mcpResourceTemplates(baseUrl, key)) expect(template).toMatch(/^[a-z]+:\/\/\{id\}$/);
  });

  test("every public operation of the contract is reached by a surface", () => {
    const reached = new Set<Operation>([
      ...restRoutes.map((r) => r.op as Operation),
      ...Object.values(GRAPHQL_CALLS).map((c) => c.op as Operation),
      ...contract.STREAMED_OPS,
      ...contract.NESTED_OPS,
    ]);
    const missing = contract.publicOps().filter((op) => !reached.has(op));
    expect(missing.map((op) => op.subject)).toEqual([]);
  });
}
