import type { CallerContext } from "../http/exchange/operation-call";
import type { Loaders } from "./loaders";

/** What every resolver sees: built once per HTTP request by the /graphql handler, after the guard admitted it. */
export interface GraphQLContext extends CallerContext {
  loaders: Loaders;
}

/** The only way a resolver or loader reaches a service (scope check, then the bus). */
export { callOperation as call } from "../http/exchange/operation-call";
