import { BlockList, isIP } from "node:net";
import { validationError } from "../contract/errors";

/**
 * Where a webhook may be sent. Receivers are on the public internet over https; a host on the operator's
 * allow-list (WEBHOOK_ALLOWED_HOSTS) may also use http and private addresses. Everything else that could
 * reach inside the operator's network (loopback, private, link-local and so cloud metadata, carrier-grade
 * NAT, multicast, reserved) is refused: at registration when the URL names such an address, and before
 * every attempt once the host name is resolved (sender.ts), so DNS cannot point a public name inward.
 */
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  BLOCKED.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["::", 96], // IPv4-compatible (deprecated)
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  BLOCKED.addSubnet(net, bits, "ipv6");

/** The IPv4 address a NAT64 address (64:ff9b::/96) stands for; null for any other address. */
function nat64Target(ip: string): string | null {
  const m = /^64:ff9b::(?:([0-9a-f]{1,4}):([0-9a-f]{1,4})|(\d+\.\d+\.\d+\.\d+))$/i.exec(ip);
  if (!m) return null;
  if (m[3]) return m[3];
  const n = (parseInt(m[1]!, 16) << 16) | parseInt(m[2]!, 16);
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

/** Whether an IP address (v4 or v6, IPv4-mapped included) is one webhooks must not reach. */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  if (family === 4) return BLOCKED.check(ip, "ipv4");
  const mapped = nat64Target(ip);
  if (mapped) return BLOCKED.check(mapped, "ipv4");
  // BlockList checks an IPv4-mapped address (::ffff:a.b.c.d) against the IPv4 rules too.
  return BLOCKED.check(ip, "ipv6");
}

/** The operator's allow-list, from its comma-separated form. */
export function allowList(text: string): ReadonlySet<string> {
  return new Set(
    text
      .split(",")
      .map((h) => hostOf(h.trim()))
      .filter(Boolean),
  );
}

/** A URL's host as compared and resolved: lower case, IPv6 without brackets. */
export const hostOf = (hostname: string) => hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");

export interface ParsedTarget {
  url: URL;
  host: string;
  /** On the operator's allow-list: http and private addresses allowed. */
  allowed: boolean;
}

/**
 * The registration check of a webhook URL, without DNS (names are resolved before each attempt): an
 * absolute http(s) URL without credentials, https unless its host is allow-listed, and no address
 * literal that is blocked. Refusals are VALIDATION_ERRORs on `url`.
 */
export function checkWebhookUrl(text: string, allowed: ReadonlySet<string>): ParsedTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw validationError("url", "format", "url must be an absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw validationError("url", "format", "url must be an http(s) URL");
  if (url.username || url.password)
    throw validationError("url", "format", "url must not carry credentials: the signature authenticates");
  const host = hostOf(url.hostname);
  const target = { url, host, allowed: allowed.has(host) };
  if (target.allowed) return target;
  if (isIP(host) !== 0 && isBlockedAddress(host))
    throw validationError("url", "blocked_address", `url must not point at a private or reserved address (${host})`);
  if (url.protocol !== "https:") throw validationError("url", "https", "url must use https");
  return target;
}
