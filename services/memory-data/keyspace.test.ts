import { expect, test } from "bun:test";
import { foldName } from "./keyspace";

test("foldName folds case and Unicode composition, and nothing else", () => {
  expect(foldName("CAFÉ")).toBe(foldName("cafe\u0301"));
  expect(foldName("ÉCOLE")).toBe("école");
  expect(foldName("Straße")).toBe("straße");
  expect(foldName(" a  b ")).toBe(" a  b ");
});
