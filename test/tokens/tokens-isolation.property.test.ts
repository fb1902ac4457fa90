import { test } from "bun:test";
import { testStack } from "../harness";
import { checkIsolation, httpSend, seedIsolation } from "./isolation";

/**
 * A token for `user_id: u_1` reaches no memory of `u_2` through any REST route or GraphQL field: random
 * operations (reads, lists with filters, search, context, hierarchy fields, tag and entity walks, and writes
 * aimed at u_2's memories) over HTTP. The same property runs in Chromium in test/browser/tokens.test.ts.
 */
test("a token for u_1 reaches no memory of u_2 through any REST route or GraphQL field", async () => {
  const stack = await testStack();
  const seed = await seedIsolation(stack.baseUrl, stack.adminKey);
  await checkIsolation(seed, httpSend(stack.baseUrl, await seed.mint()), 40);
}, 120_000);
