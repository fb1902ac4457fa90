import type { CombinedError } from "@urql/preact";

/** What to show for a failed operation: the first GraphQL error's message, or the network failure. */
export function messageOf(error: CombinedError | undefined | null): string | null {
  if (!error) return null;
  const first = error.graphQLErrors[0];
  if (first) return first.message;
  return error.networkError ? `The server cannot be reached (${error.networkError.message}).` : error.message;
}
