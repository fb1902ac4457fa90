/** Signing in to the dashboard over HTTP, as its page does: the session cookie and CSRF token it hands back. */
export interface SignedIn {
  status: number;
  body: any;
  headers: Headers;
  /** `dashboard_session=<id>`, ready for a Cookie header; empty when no cookie was set. */
  cookie: string;
  /** The whole Set-Cookie line, attributes included. */
  setCookie: string;
  csrf: string;
}

export const SESSION_PATH = "/dashboard/api/session";

export async function signIn(baseUrl: string, key: unknown, headers: Record<string, string> = {}): Promise<SignedIn> {
  const res = await fetch(baseUrl + SESSION_PATH, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ key }),
  });
  const body = await res.json();
  const setCookie = res.headers.get("set-cookie") ?? "";
  return {
    status: res.status,
    body,
    headers: res.headers,
    cookie: setCookie.split(";")[0] ?? "",
    setCookie,
    csrf: body?.data?.csrf_token ?? "",
  };
}

/** A GraphQL request carrying only the session cookie (and the CSRF token when given). */
export async function graphqlWithCookie(
  baseUrl: string,
  cookie: string,
  query: string,
  opts: { csrf?: string; method?: "GET" | "POST" } = {},
) {
  const headers: Record<string, string> = { cookie, accept: "application/json" };
  if (opts.csrf !== undefined) headers["x-csrf-token"] = opts.csrf;
  const res =
    opts.method === "GET"
      ? await fetch(`${baseUrl}/graphql?query=${encodeURIComponent(query)}`, { headers })
      : await fetch(`${baseUrl}/graphql`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ query }),
        });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}
