import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { restRoutes } from "../../gateway/rest/routes";
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

describe("the page layout's rule: list routes answer exactly a Page", () => {
  test("any page position (non-negative safe integers) and items come back through rawPage", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue()),
        fc.maxSafeNat(),
        fc.maxSafeNat(),
        fc.maxSafeNat(),
        (items, total, limit, offset) => {
          const raw = rawPage(encodeReply({ items, total, limit, offset }))!;
          expect({ total: raw.total, limit: raw.limit, offset: raw.offset }).toEqual({ total, limit, offset });
          expect(JSON.parse(text(raw.items))).toEqual(JSON.parse(JSON.stringify(items)));
        },
      ),
    );
  });

  test("every REST list route's operation outputs a Page: four fields, the position as integers", () => {
    const lists = restRoutes.filter((r) => r.list);
    expect(lists.length).toBeGreaterThan(0);
    for (const route of lists) {
      const output = route.op.output as { type?: string; properties?: Record<string, { type?: string }> };
      const shape = Object.fromEntries(Object.entries(output.properties ?? {}).map(([k, v]) => [k, v.type]));
      expect({ route: route.path, type: output.type, shape }).toEqual({
        route: route.path,
        type: "object",
        shape: { items: "array", total: "integer", limit: "integer", offset: "integer" },
      });
    }
  });
});
