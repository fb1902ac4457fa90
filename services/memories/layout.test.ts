import { expect, test } from "bun:test";
import { keyspace } from "../kit/keyspace";
import { LAYOUT_SIZE, layoutArgs, luaPrelude } from "./layout";

test("the layout rebuilds exactly the keyspace's key names", () => {
  const space = { tenant: "acme", env: "test" } as const;
  const ks = keyspace(space);
  const args = layoutArgs(space);
  expect(args.length).toBe(LAYOUT_SIZE);
  expect(args.slice(0, 6)).toEqual([ks.byCreated, ks.byUpdated, ks.roots, ks.externalIds, ks.entityNames, ks.entitiesByCreated]);
  const tpl = (i: number) => (id: string) => args[i]! + id + args[i + 1]!;
  expect(tpl(6)("abc")).toBe(ks.memory("abc"));
  expect(tpl(8)("abc")).toBe(ks.memoryTags("abc"));
  expect(tpl(10)("abc")).toBe(ks.memoryKids("abc"));
  expect(tpl(12)("abc")).toBe(ks.memoryEntities("abc"));
  expect(tpl(14)("abc")).toBe(ks.tag("abc"));
  expect(tpl(16)("abc")).toBe(ks.tagMembers("abc"));
  expect(tpl(18)("abc")).toBe(ks.entity("abc"));
  expect(tpl(20)("abc")).toBe(ks.entityMembers("abc"));
  expect(tpl(22)("fact")).toBe(ks.byField("content_type", "fact"));
  expect(tpl(24)("long")).toBe(ks.byField("tier", "long"));
  expect(tpl(26)("semantic")).toBe(ks.byField("memory_nature", "semantic"));
  // Every key of the tenant shares its hash tag (one cluster slot).
  for (const a of args) if (a.includes("{")) expect(a).toContain("{acme:test}");
});

test("the prelude reads the layout positions the arguments use", () => {
  const lua = luaPrelude();
  expect(lua).toContain("K.created = ARGV[1]");
  expect(lua).toContain("K.memory = tpl(7)");
  expect(lua).toContain("K.memory_nature = tpl(27)");
  expect(lua).toContain(`for i = ${LAYOUT_SIZE + 1}, #ARGV do`);
});

test("layouts are kept per tenant and environment, never mixed up", () => {
  const a = layoutArgs({ tenant: "acme", env: "live" });
  expect(layoutArgs({ tenant: "acme", env: "live" })).toBe(a);
  expect(layoutArgs({ tenant: "acme", env: "test" })[0]).toBe(keyspace({ tenant: "acme", env: "test" }).byCreated);
  expect(layoutArgs({ tenant: "live:acme", env: "live" })[0]).toBe(keyspace({ tenant: "live:acme", env: "live" }).byCreated);
  expect(a[0]).toBe(keyspace({ tenant: "acme", env: "live" }).byCreated);
});
