import { expect, test } from "bun:test";
import { threadOrderMember, VALID_FOREVER } from "../store";
import { toIndexDoc } from "./document";
import { snapshotFixture } from "./snapshot.fixture";

test("a document holds the memory's life: occurred_at, thread order, valid_to, expiry, the latest filter", () => {
  const created = "2024-01-01T00:00:00.000Z";
  const plain = toIndexDoc(snapshotFixture({}, created));
  const at = Date.parse(created);
  expect(plain).toMatchObject({ occurredMs: at, validToMs: null, expiresMs: null });
  expect(plain.threadOrder).toBe(threadOrderMember(at, at, plain.id));
  expect(plain.filterSuffixes).toContain("latest:1");
  expect(JSON.parse(plain.attrs)).toMatchObject({ oa: at, vto: VALID_FOREVER, lt: "1" });

  const replaced = toIndexDoc(
    snapshotFixture(
      {
        occurred_at: "1999-12-31T23:00:00.000Z",
        superseded_by: crypto.randomUUID(),
        valid_to: "2020-02-02T00:00:00.000Z",
        expires_at: "2030-01-01T00:00:00.000Z",
      },
      created,
    ),
  );
  expect(replaced).toMatchObject({
    occurredMs: Date.parse("1999-12-31T23:00:00.000Z"),
    validToMs: Date.parse("2020-02-02T00:00:00.000Z"),
    expiresMs: Date.parse("2030-01-01T00:00:00.000Z"),
  });
  expect(replaced.filterSuffixes).not.toContain("latest:1");
  expect(JSON.parse(replaced.attrs)).toMatchObject({ vto: Date.parse("2020-02-02T00:00:00.000Z"), lt: "" });
  // A snapshot without a given occurred_at (an older publisher's) occurred when it was created.
  const { occurred_at: _o, ...older } = snapshotFixture({}, created);
  expect(toIndexDoc(older).occurredMs).toBe(at);
});
