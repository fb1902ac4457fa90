import type { OperationContext } from "@urql/preact";
import { useRef } from "preact/hooks";

/**
 * A stable function that asks the server again for a query with its variables as they are when it is called:
 * a write that finishes after a filter changed refreshes what the page shows then, not what it showed before.
 */
export function useReload(refetch: (opts?: Partial<OperationContext>) => void): () => void {
  const latest = useRef(refetch);
  latest.current = refetch;
  return useRef(() => latest.current({ requestPolicy: "network-only" })).current;
}
