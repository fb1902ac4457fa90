import fc from "fast-check";
import { accept, nastyBody, nastyJson, nastyString, rawBody } from "./arbitraries";
import type { FuzzRequest } from "./requests";

/** A dashboard session of the fuzzed tenant's key: its cookie and CSRF token. */
export interface FuzzSession {
  cookie: string;
  csrf: string;
}

/** Header values a client can send (printable ASCII), odd ones included. */
const headerValue = fc.oneof(
  fc.string({ unit: "grapheme-ascii", maxLength: 80 }),
  fc.constantFrom("", " ", "null", "dashboard_session=", `dashboard_session=${"A".repeat(43)}`, "a=b; c"),
  fc.nat({ max: 6_000 }).map((n) => "x".repeat(n)),
);

const enc = (s: string) => {
  try {
    return encodeURIComponent(s.slice(0, 1_500));
  } catch {
    return "%ED%A0%80";
  }
};

const anyMethod = fc.constantFrom("GET", "GET", "POST", "DELETE", "PUT", "HEAD", "OPTIONS");

/**
 * Requests to the browser-facing routes: the session API (sign-in bodies, cookies and CSRF tokens real and fake),
 * the dashboard's pages and assets, /docs, and /graphql with the session cookie instead of a key.
 */
export function webRequest(session: FuzzSession): fc.Arbitrary<FuzzRequest> {
  const cookie = fc.oneof(fc.constant(session.cookie), headerValue);
  const csrf = fc.oneof(fc.constant(session.csrf), fc.constant(undefined), headerValue);
  const signIn = fc
    .oneof(
      { weight: 4, arbitrary: nastyBody(["key"]).map((b) => JSON.stringify(b)) },
      nastyJson.map((b) => JSON.stringify(b) ?? "null"),
      rawBody,
    )
    .map(
      (body): FuzzRequest => ({
        method: "POST",
        path: "/dashboard/api/session",
        headers: { "content-type": "application/json" },
        body,
        write: false,
        label: "POST /dashboard/api/session",
        anonymous: true,
      }),
    );
  const sessionCall = fc.record({ method: anyMethod, cookie, csrf }).map(({ method, cookie, csrf }): FuzzRequest => {
    const headers: Record<string, string> = { cookie };
    if (csrf !== undefined) headers["x-csrf-token"] = csrf;
    // Ending the fuzzer's own session would only make the later cookie requests less interesting.
    if (method === "DELETE" && cookie === session.cookie) delete headers["x-csrf-token"];
    return { method, path: "/dashboard/api/session", headers, write: false, label: "session call", anonymous: true };
  });
  const page = fc
    .record({
      method: anyMethod,
      path: fc.oneof(
        fc.constantFrom("/dashboard", "/dashboard/", "/docs", "/docs/json", "/dashboard/api"),
        nastyString.map((s) => `/dashboard/${enc(s)}`),
        nastyString.map((s) => `/dashboard/assets/${enc(s)}`),
        nastyString.map((s) => `/dashboard/api/${enc(s)}`),
      ),
      accept,
    })
    .map(({ method, path, accept }): FuzzRequest => {
      const headers: Record<string, string> = accept ? { accept } : {};
      return { method, path, headers, write: false, label: "web page", anonymous: true };
    });
  const graphql = fc
    .record({
      cookie,
      csrf,
      query: fc.constantFrom(
        "{ __typename }",
        "query { memories(limit: 1) { total } }",
        'mutation { createTag(input: {name: "fuzz-cookie"}) { id } }',
      ),
      method: fc.constantFrom("POST", "POST", "GET"),
    })
    .map(({ cookie, csrf, query, method }): FuzzRequest => {
      const headers: Record<string, string> = { cookie, "content-type": "application/json" };
      if (csrf !== undefined) headers["x-csrf-token"] = csrf;
      const write = query.startsWith("mutation");
      if (method === "GET")
        return {
          method,
          path: `/graphql?query=${enc(query)}`,
          headers,
          write,
          label: "GET /graphql (cookie)",
          anonymous: true,
        };
      const body = JSON.stringify({ query });
      return { method, path: "/graphql", headers, body, write, label: "POST /graphql (cookie)", anonymous: true };
    });
  return fc.oneof(signIn, sessionCall, page, graphql);
}
