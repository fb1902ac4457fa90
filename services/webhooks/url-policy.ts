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
  ["64:ff9b::", 32], // NAT64: only its /96 maps public IPv4 (checked below); the local-use /48 and the rest are not
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  BLOCKED.addSubnet(net, bits, "ipv6");

/** An IPv6 address (as `isIP` accepts it) as its eight 16-bit groups. */
function groupsOf(ip: string): number[] {
  let text = ip.replace(/%.*$/, "");
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join(".");

/**
 * The IPv4 addresses an IPv6 address carries and leads to: IPv4-mapped (::ffff:0:0/96), IPv4-translated
 * (::ffff:0:0:0/96), IPv4-compatible (::/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16, bits 16–47), Teredo
 * (2001::/32: its server, and its client as the last 32 bits inverted) and ISATAP (an interface id
 * 0000:5efe or 0200:5efe). A packet to such an address reaches that IPv4 address through a relay or a
 * translator, so it is checked like the IPv4 address itself.
 */
function embeddedIPv4(g: number[]): string[] {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const last = ipv4Of(g[6]!, g[7]!);
  const found: string[] = [];
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) found.push(last); // mapped, compatible
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) found.push(last); // translated
  if (isNat64(g)) found.push(last);
  if (g[0] === 0x2002) found.push(ipv4Of(g[1]!, g[2]!)); // 6to4
  if (g[0] === 0x2001 && g[1] === 0) found.push(ipv4Of(g[2]!, g[3]!), ipv4Of(~g[6]! & 0xffff, ~g[7]! & 0xffff));
  if ((g[4]! & 0xfdff) === 0 && g[5] === 0x5efe) found.push(last); // ISATAP
  return found;
}

/** In NAT64's well-known /96 (64:ff9b::/96), which maps every IPv4 address. */
const isNat64 = (g: number[]) => g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);

/** Whether an IP address (v4, or v6 however written, one carrying an IPv4 address included) must not be reached. */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  if (family === 4) return BLOCKED.check(ip, "ipv4");
  const groups = groupsOf(ip);
  // A NAT64 address is as reachable as the IPv4 address it carries; the rest of 64:ff9b::/32 is blocked.
  if (!isNat64(groups) && BLOCKED.check(ip, "ipv6")) return true;
  return embeddedIPv4(groups).some((v4) => BLOCKED.check(v4, "ipv4"));
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

/** The host of an http(s) URL exactly as its text writes it (not as a URL parser normalises it), or null. */
const WRITTEN_HOST = /^https?:\/\/(?:[^/?#\\@]*@)?(\[[^\]/?#\\]*\]|[^/?#\\:]*)/i;

/**
 * Whether a URL's host is on the operator's allow-list, matched as the URL writes it (letter case aside):
 * another spelling of a listed address (`127.1`, `2130706433`, `0x7f000001`, `[::ffff:127.0.0.1]`) or a
 * name that resolves to it is not listed, so it gets the checks of any other host. A URL whose text has
 * no plain `scheme://host` start (leading spaces, backslashes) is never allow-listed.
 */
export function isAllowListed(text: string, allowed: ReadonlySet<string>): boolean {
  const written = WRITTEN_HOST.exec(text)?.[1];
  return written !== undefined && written !== "" && allowed.has(hostOf(written));
}

export interface ParsedTarget {
  url: URL;
  host: string;
  /** On the operator's allow-list, as written: http and private addresses allowed. */
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
  const target = { url, host, allowed: isAllowListed(text, allowed) };
  if (target.allowed) return target;
  if (isIP(host) !== 0 && isBlockedAddress(host))
    throw validationError("url", "blocked_address", `url must not point at a private or reserved address (${host})`);
  if (url.protocol !== "https:") throw validationError("url", "https", "url must use https");
  return target;
}
