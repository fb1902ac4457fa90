import { describe, expect, test } from "bun:test";
import { createCoalescer } from "./coalesce";

/** A run that records its batches and answers each input after `gate` opens. */
function recorder() {
  const batches: { key: string; inputs: number[] }[] = [];
  let open: () => void = () => {};
  let gate = new Promise<void>((r) => (open = r));
  const run = async (key: string, inputs: number[]) => {
    batches.push({ key, inputs });
    await gate;
    return inputs.map((n) => (n < 0 ? new Error(`refused ${n}`) : n * 10));
  };
  return {
    batches,
    run,
    release() {
      open();
      gate = new Promise<void>((r) => (open = r));
    },
  };
}

describe("createCoalescer", () => {
  test("alone, a call goes at once; what arrives while it runs goes as the next call, in order", async () => {
    const r = recorder();
    const c = createCoalescer(r.run);
    const first = c.submit("a", 1);
    const rest = [2, 3, 4].map((n) => c.submit("a", n));
    expect(r.batches).toEqual([{ key: "a", inputs: [1] }]);
    r.release();
    expect(await first).toBe(10);
    await Bun.sleep(0);
    expect(r.batches[1]).toEqual({ key: "a", inputs: [2, 3, 4] });
    r.release();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  test("keys do not wait for each other", async () => {
    const r = recorder();
    const c = createCoalescer(r.run);
    void c.submit("a", 1);
    void c.submit("b", 2);
    expect(r.batches.map((b) => b.key)).toEqual(["a", "b"]);
    r.release();
  });

  test("an Error in the answer rejects its input alone; a throwing call rejects its whole batch", async () => {
    const r = recorder();
    const c = createCoalescer(r.run);
    const answers = [c.submit("a", 1), c.submit("a", -2), c.submit("a", 3)].map((p) =>
      p.then(
        (v) => v,
        (e: Error) => e.message,
      ),
    );
    r.release();
    await Bun.sleep(0);
    r.release();
    expect(await Promise.all(answers)).toEqual([10, "refused -2", 30]);

    const failing = createCoalescer<number, number>(async () => {
      throw new Error("down");
    });
    const both = [failing.submit("a", 1), failing.submit("a", 2)].map((p) => p.catch((e: Error) => e.message));
    expect(await Promise.all(both)).toEqual(["down", "down"]);
  });

  test("a batch holds at most `max` inputs; the rest go in the calls after", async () => {
    const r = recorder();
    const c = createCoalescer(r.run, 2);
    const all = [1, 2, 3, 4, 5, 6].map((n) => c.submit("a", n));
    for (let i = 0; i < 4; i++) {
      r.release();
      await Bun.sleep(0);
    }
    expect(r.batches.map((b) => b.inputs)).toEqual([[1], [2, 3], [4, 5], [6]]);
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50, 60]);
  });

  test("an answer shorter than its batch rejects the inputs it left out", async () => {
    const c = createCoalescer<number, number>(async (_k, inputs) => inputs.slice(0, 1));
    void c.submit("a", 0);
    const late = [c.submit("a", 1), c.submit("a", 2)].map((p) => p.catch((e: Error) => e.message));
    expect(await Promise.all(late)).toEqual([1, "a coalesced call answered 1 of 2"]);
  });
});
