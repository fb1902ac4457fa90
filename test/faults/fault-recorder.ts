import { newTenant } from "../api";
import type { Stack } from "../../scripts/stack/launch";

/** The requests of a fault test, each one recorded with its timing and outcome, from this process over loopback. */

export interface Sample {
  op: string;
  /** ms since the recorder's origin */
  start: number;
  end: number;
  /** HTTP status; 0 = no answer (network error or our hang guard fired). */
  status: number;
  code?: string;
}

/** A request taking longer than this counts as a hang (status 0). */
export const HANG_MS = 10_000;

export interface Client {
  key: string;
  tenant: string;
  /** One request, recorded; resolves with the parsed body (or null) and never rejects. */
  call(op: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export class Recorder {
  readonly origin = performance.now();
  readonly samples: Sample[] = [];
  now = () => performance.now() - this.origin;

  client(baseUrl: string, key: string, tenant: string): Client {
    return {
      key,
      tenant,
      call: async (op, method, path, body) => {
        const start = this.now();
        let status = 0;
        let parsed: any = null;
        try {
          const res = await fetch(baseUrl + path, {
            method,
            headers: {
              Authorization: `Bearer ${key}`,
              ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
            signal: AbortSignal.timeout(HANG_MS),
          });
          status = res.status;
          const text = await res.text();
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
        } catch {
          status = 0;
        }
        this.samples.push({ op, start, end: this.now(), status, code: parsed?.error?.code });
        return { status, body: parsed };
      },
    };
  }
}

export async function tenantClient(stack: Stack, rec: Recorder): Promise<Client> {
  const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
  return rec.client(stack.baseUrl, t.key, t.tenant);
}
