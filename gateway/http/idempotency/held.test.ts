import { describe, expect, test } from "bun:test";
import { doneValue, readHeld, runningValue } from "./held";

describe("held values", () => {
  test("a claim's value reads back as running, with its fingerprint", () => {
    expect(readHeld(runningValue("ab12", "token-1"))).toEqual({ done: false, fingerprint: "ab12" });
  });

  test("a kept answer reads back whole: a body with newlines and any character stays as it was", () => {
    const body = '{"data":{"content":"line 1\\nline 2 \n raw\n\n é 漢 🙂"}}';
    const headers = { "x-request-id": "req-1", "content-type": "application/json; charset=utf-8" };
    const value = doneValue("ab12", 201, headers, new TextEncoder().encode(body));
    expect(readHeld(value)).toEqual({ done: true, fingerprint: "ab12", status: 201, headers, body });
  });

  test("an empty body is kept as empty", () => {
    const value = doneValue("ff", 204, {}, new Uint8Array());
    expect(readHeld(value)).toEqual({ done: true, fingerprint: "ff", status: 204, headers: {}, body: "" });
  });
});
