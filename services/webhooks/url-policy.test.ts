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

describe("checkWebhookUrl", () => {
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

  test("not an absolute http(s) URL, or one with credentials, is a format refusal", () => {
    for (const url of ["hooks.example.com", "ftp://example.com/", "javascript:alert(1)", "https://u:p@example.com/"])
      expect([url, refusal(url)]).toEqual([url, "format"]);
  });
});
