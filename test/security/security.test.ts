import { afterAll, describe } from "bun:test";
import { credentialTests } from "./credentials";
import { closeClients } from "./operations";
import { coverageTests } from "./coverage";
import { restrictionTests } from "./restrictions";
import { counts } from "./summary";

/**
 * The security test generated from the contract: every REST route, GraphQL root field, MCP tool and streamed
 * route, with every credential (coverage.ts checks that the tables behind it name every operation).
 */
describe("the call tables cover the contract", coverageTests);
describe("credentials on every operation", credentialTests);
describe("restricted tokens on every operation", restrictionTests);

afterAll(async () => {
  await closeClients();
  console.log(counts.line());
});
