import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { hostOf, isAllowListed, isBlockedAddress } from "../url-policy";

/** Response bodies are read up to this much, then dropped: a receiver cannot make an attempt hold memory. */
export const RESPONSE_BODY_LIMIT = 64 * 1024;

export interface SendResult {
  ok: boolean;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

export interface SenderOptions {
  /** Hosts on the operator's allow-list (url-policy.ts: allowList). */
  allowed: ReadonlySet<string>;
  timeoutMs: number;
  /** The addresses of a host name; the system resolver by default. */
  lookup?: (host: string) => Promise<string[]>;
}

export type Send = (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;

const systemLookup = async (host: string) => (await dnsLookup(host, { all: true })).map((a) => a.address);

class Refused extends Error {}

/**
 * One POST of a webhook: the only code of the service that makes outbound requests. The host is resolved
 * first and, unless it is allow-listed, every address it resolves to must be public (url-policy.ts); the
 * request then goes to that vetted address (Host header and TLS server name kept), so a second lookup
 * cannot send it elsewhere (DNS rebinding). No redirect is followed, the body read stops at 64 KiB, and the
 * whole attempt, lookup included, ends at the timeout. Never rejects.
 */
export function createSender(opts: SenderOptions): Send {
  const lookup = opts.lookup ?? systemLookup;
  return async (url, headers, body) => {
    const started = performance.now();
    const signal = AbortSignal.timeout(opts.timeoutMs);
    const result = (status: number | null, error: string | null): SendResult => ({
      ok: error === null,
      status_code: status,
      latency_ms: Math.round((performance.now() - started) * 100) / 100,
      error,
    });
    try {
      const target = new URL(url);
      const host = hostOf(target.hostname);
      const allowed = isAllowListed(url, opts.allowed);
      if (!allowed && target.protocol !== "https:") throw new Refused("refused: http is only for allow-listed hosts");
      let address: string | null = null;
      if (!allowed) {
        const addresses = isIP(host) ? [host] : await abortable(lookup(host), signal);
        const blocked = addresses.find(isBlockedAddress);
        if (blocked !== undefined || addresses.length === 0)
          throw new Refused(`refused: ${host} resolves to a private or reserved address (${blocked ?? "none"})`);
        address = addresses[0]!;
      }
      const pinned = new URL(target);
      if (address !== null) pinned.hostname = isIP(address) === 6 ? `[${address}]` : address;
      const res = await fetch(pinned, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "memory-service-webhooks/1.0",
          ...headers,
          ...(address !== null ? { host: target.host } : {}),
        },
        body,
        redirect: "manual",
        signal,
        ...(address !== null && target.protocol === "https:" ? { tls: { serverName: host } } : {}),
      });
      await readAtMost(res, RESPONSE_BODY_LIMIT);
      const ok = res.status >= 200 && res.status < 300;
      const error =
        res.status >= 300 && res.status < 400 ? `redirect (${res.status}) not followed` : `HTTP ${res.status}`;
      return result(res.status, ok ? null : error);
    } catch (err) {
      if (err instanceof Refused) return result(null, err.message);
      if (signal.aborted) return result(null, `timeout after ${opts.timeoutMs} ms`);
      const e = err as { code?: string; message?: string };
      return result(null, `connection: ${e.code ?? e.message ?? "failed"}`);
    }
  };
}

/** Reads a response body up to `limit` bytes and drops the rest. */
async function readAtMost(res: Response, limit: number): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    read += value.byteLength;
    if (read >= limit) {
      await reader.cancel().catch(() => undefined);
      return;
    }
  }
}

/** A promise that rejects when the signal aborts (DNS lookups take no signal). */
function abortable<X>(p: Promise<X>, signal: AbortSignal): Promise<X> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
