import { testStack } from "../harness";
import type { KindWorld } from "./seed";

/**
 * What a restricted `memoryEvents` stream carries while both users' memories change: the events of A's memories,
 * none of B's. B's memory changes between two changes of A's, so an event of it would arrive before the second.
 */
export async function eventsSeenByA(w: KindWorld): Promise<{ leaked: string[]; sawA: boolean }> {
  const { baseUrl } = await testStack();
  const { inside, outside } = await w.fixtures();
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    signal: abort.signal,
    headers: {
      Authorization: `Bearer ${w.tokenA}`,
      "Content-Type": "application/json",
      Accept: "text/event-stream",
    },
    body: JSON.stringify({ query: "subscription { memoryEvents { type memoryId changed } }" }),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  /** Reads until `id`'s event `n` (its `n`th event) arrives, or `ms` pass. */
  // One read in flight at a time, kept across waits, so no chunk is lost to a wait that timed out.
  let pending: ReturnType<typeof reader.read> | null = null;
  const until = async (id: string, n: number, ms: number) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline && text.split(id).length - 1 < n) {
      pending ??= reader.read();
      const chunk = await Promise.race([pending, Bun.sleep(deadline - Date.now()).then(() => null)]);
      if (!chunk) return;
      pending = null;
      if (chunk.done) return;
      text += decoder.decode(chunk.value, { stream: true });
    }
  };
  // The stream is live once an event of A arrives: change A's memory until one does.
  for (let i = 1; i <= 10 && !text.includes(inside.memory); i++) {
    await w.api.patch(`/v1/memories/${inside.memory}`, { content: `a changed ${i}` });
    await until(inside.memory, 1, 500);
  }
  const seen = text.split(inside.memory).length - 1;
  await w.api.patch(`/v1/memories/${outside.memory}`, { content: "b changed" });
  await w.api.patch(`/v1/memories/${inside.memory}`, { content: "a changed again" });
  await until(inside.memory, seen + 1, 5000);
  abort.abort();
  const leaked = [outside.memory, outside.other!].filter((id) => text.includes(id));
  return { leaked, sawA: text.split(inside.memory).length - 1 > seen };
}
