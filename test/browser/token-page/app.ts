import { ClientError, GraphQLClient } from "graphql-request";

/**
 * A frontend's code as the README shows it: GraphQL through graphql-request with a token its backend minted,
 * and the `memoryEvents` subscription over SSE with fetch. Served from an origin other than the API's
 * (tokens.test.ts); the test drives it through `window.tokenPage`.
 */
interface Outcome {
  data?: unknown;
  status?: number;
  /** A request the browser itself refused (CORS): fetch's TypeError. */
  blocked?: boolean;
  error?: string;
}

async function request(api: string, token: string, query: string, variables?: Record<string, unknown>) {
  const client = new GraphQLClient(`${api}/graphql`, { headers: { Authorization: `Bearer ${token}` } });
  try {
    return { data: await client.request(query, variables), status: 200 } satisfies Outcome;
  } catch (err) {
    if (err instanceof ClientError) return { status: err.response.status, error: err.message } satisfies Outcome;
    return { blocked: err instanceof TypeError, error: String(err) } satisfies Outcome;
  }
}

/** A plain fetch of a REST path: its status, or `blocked` when the browser refused to hand over the answer. */
async function rest(api: string, token: string, path: string): Promise<Outcome> {
  try {
    const res = await fetch(api + path, { headers: { Authorization: `Bearer ${token}` } });
    return { status: res.status };
  } catch (err) {
    return { blocked: err instanceof TypeError, error: String(err) };
  }
}

/** The contents of the memories the open subscription's events carried, in order. */
const events: string[] = [];

/** Opens the subscription (its events collect in `events`); resolves with its HTTP status. */
function subscribe(api: string, token: string): Promise<number> {
  const query = "subscription { memoryEvents { type memory { content metadata } } }";
  return fetch(`${api}/graphql`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify({ query }),
  }).then(async (res) => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block.split("\n").find((l) => l.startsWith("data: "));
          const content = data && JSON.parse(data.slice(6)).data?.memoryEvents?.memory?.content;
          if (block.includes("event: next") && content) events.push(content);
        }
      }
    })();
    return res.status;
  });
}

/** Any request as the page sends it with the token: its status and body text (status 0: blocked). */
async function send(api: string, token: string, method: string, path: string, body?: unknown) {
  try {
    const res = await fetch(api + path, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    return { status: 0, text: String(err) };
  }
}

(globalThis as Record<string, unknown>).tokenPage = { request, rest, subscribe, send, events };
