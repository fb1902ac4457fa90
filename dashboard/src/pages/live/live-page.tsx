import { useSubscription } from "@urql/preact";
import { graphql } from "../../generated";
import type { MemoryEventsSubscription } from "../../generated/graphql";
import { messageOf } from "../../ui/errors";
import { excerpt, when } from "../../ui/format";
import { ErrorLine, StatusLine } from "../../ui/notice";
import { plural } from "../../ui/plural";
import { lower } from "../memories/options";

const MemoryEvents = graphql(`
  subscription MemoryEvents {
    memoryEvents {
      type
      memoryId
      version
      changed
      at
      reason
      memory {
        id
        content
        tier
        contentType
      }
    }
  }
`);

type Event = MemoryEventsSubscription["memoryEvents"];

/** How many events the page keeps: the newest first. */
const KEEP = 50;

/** Live: the memory events of the tenant as they happen, over the GraphQL subscription (SSE). */
export function LivePage() {
  const [{ data, error }] = useSubscription<MemoryEventsSubscription, Event[]>(
    { query: MemoryEvents },
    (prev = [], next) => [next.memoryEvents, ...prev].slice(0, KEEP),
  );
  const events = data ?? [];
  return (
    <>
      <h1>Live</h1>
      <p class="hint">New and changed memories appear here as they happen, newest first.</p>
      <ErrorLine message={messageOf(error)} />
      <StatusLine testId="live-status" text={`Listening · ${plural(events.length, "event")} received.`} />
      <ol class="events" aria-label="Memory events" aria-live="polite">
        {events.map((e) => (
          <li key={`${e.memoryId}:${e.version}:${e.type}`} class="event" data-memory-id={e.memoryId}>
            <span class={`event-type type-${e.type.toLowerCase()}`}>{lower(e.type)}</span>
            <span class="meta">{when(e.at)}</span>
            {e.memory ? (
              <p class="content">{excerpt(e.memory.content, 300)}</p>
            ) : (
              <p class="meta mono">
                {e.memoryId} {e.reason ? `(${lower(e.reason)})` : ""}
              </p>
            )}
            {e.changed.length > 0 && <p class="meta">changed: {e.changed.join(", ")}</p>}
          </li>
        ))}
      </ol>
    </>
  );
}
