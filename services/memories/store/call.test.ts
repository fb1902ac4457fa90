import { describe, expect, test } from "bun:test";
import { heldIndexKeys, indexKeys } from "./call";

describe("heldIndexKeys", () => {
  test("names a space's index keys once: the same frozen list on every call", () => {
    const space = { tenant: "held-keys", env: "live" as const };
    const keys = heldIndexKeys(space);
    expect(keys).toEqual(indexKeys(space));
    expect(Object.isFrozen(keys)).toBe(true);
    expect(heldIndexKeys({ ...space })).toBe(keys);
  });

  test("keeps spaces apart: another environment or tenant has its own keys", () => {
    const live = heldIndexKeys({ tenant: "held-a", env: "live" });
    expect(heldIndexKeys({ tenant: "held-a", env: "test" })).toEqual(indexKeys({ tenant: "held-a", env: "test" }));
    expect(heldIndexKeys({ tenant: "held-b", env: "live" })).not.toEqual(live);
    expect(heldIndexKeys({ tenant: "held-a", env: "test" })).not.toEqual(live);
  });
});
