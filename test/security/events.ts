import { testStack } from "../harness";
import type { KindWorld } from "./seed";

/**
 * What a restricted `memoryEvents` stream carries while both users' memories change: the events of A's memories,
 * none of B's. B's memory changes first, so an event of it would arrive before the A event the read waits for.
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
  // The stream is open once its first bytes (headers, a keep-alive) arrive; give it a moment to subscribe.
  await Bun.sleep(300);
  await w.api.patch(`/v1/memories/${outside.memory}`, { content: "b changed" });
  await w.api.patch(`/v1/memories/${inside.memory}`, { content: "a changed" });
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && !text.includes(inside.memory)) {
    const chunk = await Promise.race([reader.read(), Bun.sleep(deadline - Date.now()).then(() => null)]);
    if (!chunk || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  abort.abort();
  const leaked = [outside.memory, outside.other!].filter((id) => text.includes(id));
  return { leaked, sawA: text.includes(inside.memory) };
}
