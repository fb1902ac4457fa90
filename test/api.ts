/** A tiny HTTP client for black-box tests: every call returns status, parsed body and headers. */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export function apiClient(baseUrl: string, key?: string) {
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: {
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...headers,
      },
      body:
        body === undefined
          ? undefined
          : typeof body === "string" || body instanceof Uint8Array
            ? (body as BodyInit)
            : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* keep text */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => call("GET", path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call("POST", path, body ?? {}, headers),
    patch: (path: string, body?: unknown) => call("PATCH", path, body ?? {}),
    delete: (path: string) => call("DELETE", path),
    raw: call,
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

/** Creates a key in a fresh tenant with the root key; returns a client for it. */
export async function newTenant(
  baseUrl: string,
  adminKey: string,
  opts: { scopes?: string[]; rate_limit?: number; environment?: "live" | "test"; tenant?: string } = {},
) {
  const root = apiClient(baseUrl, adminKey);
  const tenant = opts.tenant ?? `t${crypto.randomUUID().slice(0, 8)}`;
  const res = await root.post("/v1/keys", {
    name: "test",
    tenant_id: tenant,
    scopes: opts.scopes ?? ["*"],
    rate_limit: opts.rate_limit ?? 100000,
    environment: opts.environment,
  });
  if (res.status !== 200) throw new Error(`could not create key: ${JSON.stringify(res.body)}`);
  return {
    tenant,
    key: res.body.data.key as string,
    keyId: res.body.data.id as string,
    api: apiClient(baseUrl, res.body.data.key),
  };
}
