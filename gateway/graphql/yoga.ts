import { createYoga, type YogaServerInstance } from "graphql-yoga";
import { GraphQLError } from "graphql";
import { ServiceError } from "../../services/contract/errors";
import type { GatewayDeps } from "../deps";
import type { GraphQLContext } from "./context";
import { maskError, useErrorExtensions, usePreParsedBody } from "./errors";
import type { EventHub } from "./events";
import { useLimits } from "./limits";
import { useJit } from "./jit";
import { buildSchema } from "./schema";

export const GRAPHQL_PATH = "/graphql";

/** What the /graphql handler hands yoga for one request; yoga merges it into the resolvers' context. */
export type ServerContext = Partial<GraphQLContext> & { requestId: string; params?: Record<string, unknown> };

export function createGraphqlServer(deps: GatewayDeps, hub: EventHub): YogaServerInstance<ServerContext, {}> {
  const log = deps.log.child({ component: "graphql" });
  return createYoga<ServerContext>({
    schema: buildSchema(hub),
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    // As REST: no CORS. Keys are tenant secrets, meant for servers (a frontend's backend), not browsers.
    cors: false,
    batching: false,
    // POST bodies are read by the /graphql handler with the gateway's BODY_LIMIT_BYTES (as REST);
    // yoga's own limit would stream every body through a TransformStream once more.
    maxRequestBodySize: false,
    maskedErrors: { maskError: maskError(log) },
    // GraphiQL is ours, bundled from npm and served from this origin (/graphql handler, gateway/web).
    graphiql: false,
    logging: {
      debug: () => undefined,
      info: () => undefined,
      warn: (...a: unknown[]) => log.warn(String(a[0])),
      // yoga logs every error maskError rewrote: domain errors are answers, not faults, and maskError
      // has already logged the unexpected ones with their cause.
      error: (...a: unknown[]) =>
        void (a[0] instanceof GraphQLError || a[0] instanceof ServiceError || log.error(String(a[0]))),
    },
    plugins: [usePreParsedBody(), useLimits(), ...useJit(), useErrorExtensions()],
  });
}
