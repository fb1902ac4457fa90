import { useQuery } from "@urql/preact";
import { graphql } from "../generated";

const MemoryCount = graphql(`
  query MemoryCount {
    memories(limit: 1) {
      total
    }
  }
`);

/** Memories: for now only how many the tenant holds (a first typed query through the session). */
export function Memories() {
  const [{ data, fetching, error }] = useQuery({ query: MemoryCount });
  let status: string;
  if (fetching) status = "Loading…";
  else if (error) status = `Cannot load memories: ${error.message}`;
  else status = `${data?.memories?.total ?? 0} memories stored.`;
  return (
    <>
      <h1>Memories</h1>
      <p data-testid="memory-count">{status}</p>
    </>
  );
}
