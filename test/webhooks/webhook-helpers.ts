import { afterAll } from "bun:test";
import { Webhook } from "standardwebhooks";
import type { ApiClient } from "../api";

/** Shared by the webhooks tests: a receiver on loopback (allow-listed in the test stack) and polling. */

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The parsed body: {id, type, timestamp, data}. */
  event: { id: string; type: string; timestamp: string; data: any };
  at: number;
}

/**
 * An HTTP receiver on 127.0.0.1. `answer` decides each request's status (default 200) from what it got and
 * how many requests of that event id came before; the receiver records every request, answered or not.
 */
export function receiver(answer: (r: Received, seenBefore: number) => number | Promise<number> = () => 200) {
  const got: Received[] = [];
  let decide = answer;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = await req.text();
      const r: Received = {
        path: new URL(req.url).pathname,
        headers: Object.fromEntries(req.headers),
        body,
        event: JSON.parse(body),
        at: Date.now(),
      };
      const before = got.filter((g) => g.event.id === r.event.id).length;
      got.push(r);
      return new Response("ok", { status: await decide(r, before) });
    },
  });
  afterAll(() => server.stop(true));
  return {
    got,
    url: (path = "/hook") => `http://127.0.0.1:${server.port}${path}`,
    port: server.port,
    answerWith(next: typeof answer) {
      decide = next;
    },
    /** Requests to one path. */
    at: (path: string) => got.filter((r) => r.path === path),
  };
}

/** The body, verified with the Standard Webhooks reference implementation: throws if no signature matches. */
export const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers);

/** Polls until `check` returns a value other than undefined/false, or fails after `ms`. */
export async function eventually<X>(
  check: () => Promise<X> | X,
  ms = 15_000,
  what = "condition",
): Promise<Exclude<X, false | undefined>> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v as Exclude<X, false | undefined>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await Bun.sleep(50);
  }
}

/** Registers an endpoint; resolves its id and secret. */
export async function register(api: ApiClient, url: string, events: string[] = ["*"], description?: string) {
  const res = await api.post("/v1/webhooks", { url, events, ...(description ? { description } : {}) });
  if (res.status !== 200) throw new Error(`webhook not created: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id as string, secret: res.body.data.secret as string, data: res.body.data };
}

/** The endpoint's deliveries, newest first. */
export async function deliveries(api: ApiClient, webhookId: string, query = "") {
  const res = await api.get(`/v1/webhooks/${webhookId}/deliveries?limit=100${query}`);
  if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as any[];
}

/** Waits until the endpoint's newest delivery has `status`; resolves it. */
export const newestDelivery = (api: ApiClient, webhookId: string, status: string, ms = 15_000) =>
  eventually(
    async () => {
      const [newest] = await deliveries(api, webhookId);
      return newest?.status === status && newest;
    },
    ms,
    `a ${status} delivery`,
  );

export async function createMemory(api: ApiClient, content: string) {
  const res = await api.post("/v1/memories", { content });
  if (res.status !== 200) throw new Error(`memory not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}
