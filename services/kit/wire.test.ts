import { describe, expect, test } from "bun:test";
import { decodeJson, encodeJson, encodeReply, rawData, rawPage } from "./wire";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("reply layout", () => {
  test("a success reply decodes to {data}, and rawData is the JSON text of data", () => {
    for (const data of [{ id: "a", content: 'héllo \u{1F600} "quoted"', n: 1 }, [1, 2], "s", 0, null, undefined]) {
      const reply = encodeReply(data);
      expect(decodeJson(reply)).toEqual({ data: data ?? null });
      expect(JSON.parse(text(rawData(reply)!))).toEqual(data ?? null);
    }
  });

  test("a page is laid out with its position first: rawPage gives it and the items' JSON text", () => {
    const page = {
      items: [
        { id: "x", content: "ünïcode ✓" },
        { id: "y", content: "}}" },
      ],
      total: 7,
      limit: 2,
      offset: 4,
    };
    const reply = encodeReply(page);
    expect(decodeJson(reply)).toEqual({ data: page });
    const raw = rawPage(reply)!;
    expect({ total: raw.total, limit: raw.limit, offset: raw.offset }).toEqual({ total: 7, limit: 2, offset: 4 });
    expect(JSON.parse(text(raw.items))).toEqual(page.items);
  });

  test("an empty page and a non-page", () => {
    const empty = rawPage(encodeReply({ items: [], total: 0, limit: 50, offset: 0 }))!;
    expect(text(empty.items)).toBe("[]");
    expect(rawPage(encodeReply({ id: "a" }))).toBeNull();
    // An object with page-like keys that are not integers is not a page.
    expect(rawPage(encodeReply({ items: [], total: "3", limit: 1, offset: 0 }))).toBeNull();
  });

  test("an error body is neither data nor a page", () => {
    const error = encodeJson({ error: { code: "NOT_FOUND", message: "Memory not found" } });
    expect(rawData(error)).toBeNull();
    expect(rawPage(error)).toBeNull();
    expect(rawData(new Uint8Array())).toBeNull();
  });
});
