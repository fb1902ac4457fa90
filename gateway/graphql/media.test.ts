import { describe, expect, test } from "bun:test";
import { acceptable, jsonMediaType } from "./media";

const req = (accept?: string) =>
  new Request("http://x/graphql", { headers: accept === undefined ? {} : { Accept: accept } });

describe("content negotiation of /graphql (as graphql-yoga's)", () => {
  test.each([
    [undefined, "application/json"],
    ["*/*", "application/json"],
    ["application/*", "application/json"],
    ["application/graphql-response+json", "application/graphql-response+json"],
    ["application/graphql-response+json, application/json;q=0.9", "application/graphql-response+json"],
    ["application/json, application/graphql-response+json", "application/json"],
    ["text/event-stream, application/graphql-response+json", "application/graphql-response+json"],
    ["application/json; charset=latin1, application/graphql-response+json", "application/graphql-response+json"],
    ["text/event-stream", null],
    ["application/xml", null],
  ])("Accept: %s → %s", (accept, type) => {
    expect(jsonMediaType(req(accept))).toBe(type as never);
  });

  test("acceptable: any of the JSON or stream types, in UTF-8; no Accept (or an empty one) is */*", () => {
    const yes = [undefined, "", "text/event-stream", "multipart/mixed", "text/*", "application/json; charset=UTF-8"];
    for (const accept of yes) expect(acceptable(req(accept))).toBe(true);
    const no = ["application/xml", "text/html", "application/json; charset=iso-8859-1"];
    for (const accept of no) expect(acceptable(req(accept))).toBe(false);
  });
});
