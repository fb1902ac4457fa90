import { cacheExchange, Client, fetchExchange } from "@urql/preact";
import type { Session } from "./session";

/**
 * The GraphQL client of one session: the cookie is the credential (same origin only), and every request carries
 * the session's CSRF token. Queries go as POST too, so reads and writes take the same path. Subscriptions go
 * through fetch as well (Server-Sent Events on a POST), so they carry the token like any other operation.
 * Lists show what the cache holds and ask again: a write elsewhere (another tab, the API) shows on the next visit.
 */
export const graphqlClient = (session: Session) =>
  new Client({
    url: "/graphql",
    exchanges: [cacheExchange, fetchExchange],
    preferGetMethod: false,
    fetchSubscriptions: true,
    requestPolicy: "cache-and-network",
    fetchOptions: () => ({ credentials: "same-origin", headers: { "X-CSRF-Token": session.csrf_token } }),
  });
