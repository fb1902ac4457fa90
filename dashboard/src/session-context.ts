import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Session } from "./session";

/** The signed-in session, for pages that adapt to it. */
export const SessionContext = createContext<Session | null>(null);

/** Whether this session may write: a read-only (non-admin) session sees data but changes nothing. */
export function useCanWrite(): boolean {
  const session = useContext(SessionContext);
  return session !== null && !session.read_only;
}
