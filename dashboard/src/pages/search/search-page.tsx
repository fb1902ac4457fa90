import { useQuery } from "@urql/preact";
import { useState } from "preact/hooks";
import type { ContextInput, SearchInput } from "../../generated/graphql";
import { Bar } from "../../ui/bar";
import { messageOf } from "../../ui/errors";
import { when } from "../../ui/format";
import { ErrorLine, StatusLine } from "../../ui/notice";
import { plural } from "../../ui/plural";
import { lower } from "../memories/options";
import { Playground } from "./documents";
import { type ContextOptions, SearchForm } from "./search-form";

/** Search playground: a query with every filter, hits with their score parts, and the assembled context. */
export function SearchPage() {
  const [vars, setVars] = useState<{ search: SearchInput; context: ContextInput } | null>(null);
  const [{ data, fetching, error }] = useQuery({
    query: Playground,
    variables: vars ?? { search: { query: "*" }, context: { query: "*" } },
    pause: !vars,
    requestPolicy: "network-only",
  });
  const run = (search: SearchInput, options: ContextOptions) => {
    const { limit: _limit, ...filters } = search;
    setVars({ search, context: { ...filters, ...options } });
  };
  const hits = data?.search?.results ?? [];
  const ctx = data?.context;
  return (
    <>
      <h1>Search</h1>
      <SearchForm onRun={run} />
      <ErrorLine message={messageOf(error)} />
      {vars && (
        <StatusLine testId="search-status" text={fetching ? "Searching…" : `${plural(hits.length, "result")}.`} />
      )}
      {hits.length > 0 && (
        <ol class="hits" aria-label="Results">
          {hits.map((h) => (
            <li key={h.memory.id} class="hit" data-memory-id={h.memory.id}>
              <p class="content">{h.memory.content}</p>
              <p class="meta">
                {lower(h.memory.tier)} · {lower(h.memory.contentType)} · {when(h.memory.createdAt)}
              </p>
              <div class="bars">
                <Bar label="score" value={h.score} />
                <Bar label="semantic" value={h.scores.semantic} />
                <Bar label="lexical" value={h.scores.lexical} />
                <Bar label="thread" value={h.scores.thread} />
              </div>
            </li>
          ))}
        </ol>
      )}
      {ctx && (
        <section class="panel" aria-labelledby="context-title">
          <h2 id="context-title">Context preview</h2>
          <p data-testid="context-summary">
            {plural(ctx.tokenCount, "token")} · {plural(ctx.memories.length, "memory")} ·{" "}
            {ctx.truncated ? "truncated" : "complete"}
          </p>
          <pre class="context" tabIndex={0} aria-label="Assembled context">
            {ctx.context}
          </pre>
          {ctx.omitted.length > 0 && (
            <>
              <h3>Omitted (did not fit)</h3>
              <ul>
                {ctx.omitted.map((o) => (
                  <li key={o.id} class="mono">
                    {o.id} · {lower(o.role)}
                    {o.score === null || o.score === undefined ? "" : ` · ${o.score.toFixed(3)}`}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </>
  );
}
