import { expect, test } from "bun:test";
import { acrossSlotMoves } from "./slot-moves";

test("a call redirected by a slot move is sent again until it runs; other errors and the deadline end it", async () => {
  const answers = [
    new Error("TRYAGAIN Multiple keys request during rehashing of slot"),
    new Error("Too many Cluster redirections. Last error: ReplyError: ASK 1844 127.0.0.1:37811"),
    new Error("EXECABORT Transaction discarded because of previous errors: MOVED 12 127.0.0.1:1"),
  ];
  let calls = 0;
  const value = await acrossSlotMoves(async () => {
    const next = answers[calls++];
    if (next) throw next;
    return "ran";
  });
  expect([value, calls]).toEqual(["ran", 4]);

  let other = 0;
  const err = await acrossSlotMoves(async () => {
    other++;
    throw new Error("WRONGTYPE Operation against a key holding the wrong kind of value");
  }).catch((e: Error) => e.message);
  expect([err, other]).toEqual(["WRONGTYPE Operation against a key holding the wrong kind of value", 1]);

  const started = performance.now();
  const late = await acrossSlotMoves(async () => {
    throw new Error("MOVED 12 127.0.0.1:1");
  }, 200).catch((e: Error) => e.message);
  expect(late).toBe("MOVED 12 127.0.0.1:1");
  expect(performance.now() - started).toBeLessThan(1000);
});
