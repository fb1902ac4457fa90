import { describe, expect, test } from "bun:test";
import { allowList, checkWebhookUrl, isBlockedAddress } from "./url-policy";

const refusal = (url: string, allowed: ReadonlySet<string> = new Set()) => {
  try {
    checkWebhookUrl(url, allowed);
    return null;
  } catch (err) {
    return (err as { details?: { constraint?: string } }).details?.constraint;
  }
};

describe("isBlockedAddress", () => {
  test("loopback, private, link-local (metadata), CGNAT, multicast and reserved ranges are blocked", () => {
    for (const ip of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.100.100.200",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fd00:ec2::254",
      "::ffff:127.0.0.1",
      "::ffff:a9fe:a9fe",
      "64:ff9b::a00:1",
      "64:ff9b::10.0.0.1",
      "not an ip",
    ])
      expect([ip, isBlockedAddress(ip)]).toEqual([ip, true]);
  });

  test("public addresses pass, IPv4-mapped and NAT64 forms of them too", () => {
    for (const ip of ["93.184.216.34", "8.8.8.8", "2606:2800:220:1::1", "::ffff:8.8.8.8", "64:ff9b::808:808"])
      expect([ip, isBlockedAddress(ip)]).toEqual([ip, false]);
  });
});

describe("isBlockedAddress: IPv6 addresses that carry an IPv4 address are checked as that address", () => {
  // [address, blocked, what it carries]
  const table: [string, boolean, string][] = [
    ["::ffff:127.0.0.1", true, "IPv4-mapped loopback"],
    ["::ffff:7f00:1", true, "IPv4-mapped loopback, in hex"],
    ["::ffff:a00:1", true, "IPv4-mapped 10.0.0.1, in hex"],
    ["0:0:0:0:0:ffff:a9fe:a9fe", true, "IPv4-mapped metadata, written out"],
    ["::ffff:8.8.8.8", false, "IPv4-mapped public"],
    ["::127.0.0.1", true, "IPv4-compatible loopback"],
    ["::7f00:1", true, "IPv4-compatible loopback, in hex"],
    ["::808:808", true, "IPv4-compatible public: deprecated, ::/96 is blocked whole"],
    ["::ffff:0:7f00:1", true, "IPv4-translated loopback"],
    ["::ffff:0:c0a8:101", true, "IPv4-translated 192.168.1.1"],
    ["64:ff9b::7f00:1", true, "NAT64 loopback"],
    ["64:ff9b::127.0.0.1", true, "NAT64 loopback, dotted"],
    ["64:ff9b::a9fe:a9fe", true, "NAT64 metadata"],
    ["64:ff9b::808:808", false, "NAT64 public"],
    ["64:ff9b:1::808:808", true, "NAT64 local-use /48: never public"],
    ["64:ff9b:1:7f00:1::", true, "NAT64 local-use /48, a /48 layout"],
    ["2002:7f00:1::1", true, "6to4 of 127.0.0.1"],
    ["2002:a00:1::", true, "6to4 of 10.0.0.1"],
    ["2002:a9fe:a9fe::1", true, "6to4 of the metadata address"],
    ["2002:c0a8:101:1::1", true, "6to4 of 192.168.1.1"],
    ["2002:808:808::1", false, "6to4 of 8.8.8.8"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", true, "Teredo, client 127.0.0.1 (inverted)"],
    ["2001:0000:4136:e378:8000:63bf:f5ff:fffe", true, "Teredo, client 10.0.0.1 (inverted)"],
    ["2001:0:4136:e378:8000:63bf:3f57:fefd", true, "Teredo, client 192.168.1.2 (inverted)"],
    ["2001:0:7f00:1:8000:63bf:f7f7:f7f7", true, "Teredo, server 127.0.0.1"],
    ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", false, "Teredo, public server and client 8.8.8.8"],
    ["2001:db8::1", true, "documentation"],
    ["2606:4700::5efe:7f00:1", true, "ISATAP interface id carrying 127.0.0.1"],
    ["2606:4700::200:5efe:a00:1", true, "ISATAP (universal bit) carrying 10.0.0.1"],
    ["2606:4700::5efe:808:808", false, "ISATAP carrying 8.8.8.8"],
    ["2606:4700:4700::1111", false, "plain public IPv6"],
  ];
  test.each(table)("%s → blocked %p (%s)", (ip, blocked) => {
    expect(isBlockedAddress(ip)).toBe(blocked);
  });
});

describe("checkWebhookUrl", () => {
  test("a URL naming an IPv6 address that carries a private IPv4 is refused, with details", () => {
    for (const host of ["[2002:7f00:1::1]", "[2001:0:4136:e378:8000:63bf:80ff:fffe]", "[64:ff9b:1::a00:1]"]) {
      let err: unknown = null;
      try {
        checkWebhookUrl(`https://${host}/hook`, new Set());
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({
        code: "VALIDATION_ERROR",
        details: { field: "url", constraint: "blocked_address" },
      });
    }
    for (const host of ["[::ffff:7f00:1]", "[::7f00:1]", "[64:ff9b::7f00:1]", "[::ffff:0:7f00:1]"])
      expect([host, refusal(`https://${host}/`)]).toEqual([host, "blocked_address"]);
    expect(refusal("https://[2002:808:808::1]/")).toBeNull();
  });

  test("https to a public name or address is accepted", () => {
    expect(refusal("https://hooks.example.com/in?x=1")).toBeNull();
    expect(refusal("https://93.184.216.34:8443/in")).toBeNull();
  });

  test("metadata and private addresses are refused whatever the scheme, spelled any way", () => {
    for (const url of [
      "http://169.254.169.254/",
      "https://169.254.169.254/latest/meta-data",
      "http://10.0.0.1/",
      "https://127.1/",
      "https://2130706433/",
      "https://0x7f.0.0.1/",
      "https://[::1]/",
      "https://[::ffff:10.0.0.1]/",
    ])
      expect([url, refusal(url)]).toEqual([url, "blocked_address"]);
  });

  test("http needs the allow-list; so does a private address; names are matched as written", () => {
    expect(refusal("http://hooks.example.com/")).toBe("https");
    const allowed = allowList(" 127.0.0.1 , Receiver.Internal,[::1]");
    expect(refusal("http://127.0.0.1:8080/hook", allowed)).toBeNull();
    expect(refusal("http://receiver.internal/hook", allowed)).toBeNull();
    expect(refusal("http://[::1]:9000/", allowed)).toBeNull();
    expect(refusal("http://localhost:8080/hook", allowed)).toBe("https");
    expect(refusal("https://10.0.0.1/", allowed)).toBe("blocked_address");
  });

  test("the allow-list matches the host as written: other spellings of a listed address are not listed", () => {
    const allowed = allowList("127.0.0.1,[::1],Receiver.Internal");
    for (const url of ["http://127.0.0.1/", "HTTP://127.0.0.1:80/x", "http://[::1]/", "http://RECEIVER.internal/"])
      expect([url, refusal(url, allowed)]).toEqual([url, null]);
    for (const host of ["127.1", "2130706433", "0x7f000001", "0x7f.0.0.1", "0177.0.0.1", "127.000.000.001"]) {
      expect([host, refusal(`http://${host}/`, allowed)]).toEqual([host, "blocked_address"]);
      expect([host, refusal(`https://${host}/`, allowed)]).toEqual([host, "blocked_address"]);
    }
    for (const host of ["[0:0::1]", "[0000::0001]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]"])
      expect([host, refusal(`https://${host}/`, allowed)]).toEqual([host, "blocked_address"]);
    // What a parser would make of these is a listed host; as written it is not.
    for (const url of ["http://127.0.0.%31/", "http:\\\\127.0.0.1/", "http:127.0.0.1/", " http://127.0.0.1/"])
      expect([url, refusal(url, allowed)]).toEqual([url, "blocked_address"]);
    // Listed as written, a spelling is admitted as written.
    expect(refusal("http://127.1/", allowList("127.1"))).toBeNull();
  });

  test("not an absolute http(s) URL, or one with credentials, is a format refusal", () => {
    for (const url of ["hooks.example.com", "ftp://example.com/", "javascript:alert(1)", "https://u:p@example.com/"])
      expect([url, refusal(url)]).toEqual([url, "format"]);
  });
});
