import { expect, test } from "bun:test";
import { atLeast, compareVersions, upstreamOf } from "./versions.mjs";

test("upstreamOf drops the epoch, the Debian revision and suffixes", () => {
  expect(upstreamOf("5:8.0.6-3")).toBe("8.0.6");
  expect(upstreamOf("5:8.0.2-3+deb13u3")).toBe("8.0.2");
  expect(upstreamOf("2.10.27-1+b2")).toBe("2.10.27");
  expect(upstreamOf("7.0.15+dfsg-1")).toBe("7.0.15");
  expect(upstreamOf("8.2.1")).toBe("8.2.1");
});

test("compareVersions orders dotted numbers numerically", () => {
  expect(compareVersions("8.0.10", "8.0.6")).toBeGreaterThan(0);
  expect(compareVersions("8.0.2", "8.0.4")).toBeLessThan(0);
  expect(compareVersions("8.0", "8.0.0")).toBe(0);
  expect(atLeast("8.0.4", "8.0.4")).toBe(true);
  expect(atLeast("8.0.3", "8.0.4")).toBe(false);
  expect(atLeast("2.9.10", "2.10")).toBe(false);
});
