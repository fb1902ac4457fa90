import { describe, expect, test } from "bun:test";
import { cameOverTls, clientAddressOf } from "../http/exchange/forwarded";
import { clearedSessionCookie, sessionCookie, sessionIdOf } from "./cookie";

const id = "A".repeat(43);
const withHeaders = (headers: Record<string, string>, url = "http://gw/x") => new Request(url, { headers });

describe("session cookie", () => {
  test("HttpOnly, SameSite=Strict, Path=/; Secure only over TLS; cleared with Max-Age=0", () => {
    expect(sessionCookie(id, false)).toBe(`dashboard_session=${id}; Path=/; HttpOnly; SameSite=Strict`);
    expect(sessionCookie(id, true)).toBe(`dashboard_session=${id}; Path=/; HttpOnly; SameSite=Strict; Secure`);
    expect(clearedSessionCookie(true)).toBe("dashboard_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure");
  });

  test("found among other cookies; a value of the wrong shape is no session id", () => {
    expect(sessionIdOf(withHeaders({ cookie: `a=1; dashboard_session=${id}; b=2` }))).toBe(id);
    expect(sessionIdOf(withHeaders({ cookie: `dashboard_session=${id}x` }))).toBeNull();
    expect(sessionIdOf(withHeaders({ cookie: "dashboard_session=" }))).toBeNull();
    expect(sessionIdOf(withHeaders({ cookie: `xdashboard_session=${id}` }))).toBeNull();
    expect(sessionIdOf(withHeaders({}))).toBeNull();
  });
});

describe("what a request says of its client", () => {
  test("TLS: an https URL, or X-Forwarded-Proto only from a trusted proxy", () => {
    expect(cameOverTls(withHeaders({}, "https://gw/x"), false)).toBe(true);
    expect(cameOverTls(withHeaders({ "x-forwarded-proto": "https" }), false)).toBe(false);
    expect(cameOverTls(withHeaders({ "x-forwarded-proto": "HTTPS, http" }), true)).toBe(true);
    expect(cameOverTls(withHeaders({ "x-forwarded-proto": "http" }), true)).toBe(false);
  });

  test("address: the TCP peer, or the entry a trusted proxy appended last", () => {
    const forwarded = withHeaders({ "x-forwarded-for": "6.6.6.6, 203.0.113.7" });
    expect(clientAddressOf(forwarded, "10.1.2.3", false)).toBe("10.1.2.3");
    expect(clientAddressOf(forwarded, "10.1.2.3", true)).toBe("203.0.113.7");
    expect(clientAddressOf(withHeaders({}), "10.1.2.3", true)).toBe("10.1.2.3");
    expect(clientAddressOf(withHeaders({}), undefined, false)).toBe("unknown");
  });
});
