import { describe, expect, test } from "bun:test";
import { ServiceError } from "../../contract/errors";
import { ctx } from "./handler.fixture";
import { derivedId, encodeCursor, portabilityHandlers, type PortabilityDeps } from "./portability";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("derivedId", () => {
  test("a v4-shaped UUID, the same for the same space and id, another for another space", () => {
    const id = crypto.randomUUID();
    const a = derivedId({ tenant: "acme", env: "live" }, id);
    expect(a).toMatch(UUID_V4);
    expect(a).not.toBe(id);
    expect(derivedId({ tenant: "acme", env: "live" }, id)).toBe(a);
    expect(derivedId({ tenant: "acme", env: "test" }, id)).not.toBe(a);
  });
});

describe("export cursors", () => {
  const seen: unknown[] = [];
  const port = {
    exportPage: async (_s: unknown, from: unknown) => {
      seen.push(from);
      return { records: [], next: null };
    },
  };
  const h = portabilityHandlers({ port } as unknown as PortabilityDeps);

  test("a cursor an export gave reaches the store as the position it encodes", async () => {
    const at = { phase: "m", stack: [["", 1, "1700000000000", crypto.randomUUID()]] };
    expect(await h.page({ cursor: encodeCursor(at) }, ctx)).toEqual({ records: [], cursor: null });
    expect(seen.at(-1)).toEqual(at);
  });

  test.each([
    ["not base64 JSON", "%%%"],
    ["JSON of another shape", encodeCursor({ phase: "x", after: ["", ""] })],
    ["an extra field", encodeCursor({ phase: "t", after: ["", ""], more: 1 })],
    ["a frame too long", encodeCursor({ phase: "m", stack: [["x".repeat(65), 1, "", ""]] })],
  ])("%s is a validation error on `cursor`", async (_name, cursor) => {
    const before = seen.length;
    const err = await Promise.resolve(h.page({ cursor }, ctx)).catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.details).toEqual({ field: "cursor", constraint: "format" });
    expect(seen.length).toBe(before);
  });
});
