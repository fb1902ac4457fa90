import { useEffect, useState } from "preact/hooks";

export const BASE = "/dashboard";

export interface PageDef {
  path: string;
  title: string;
  /** Needs the `admin` scope: hidden in read-only mode. */
  admin: boolean;
}

/** The pages, in navigation order. */
export const PAGES: PageDef[] = [
  { path: "keys", title: "Keys", admin: true },
  { path: "usage", title: "Usage", admin: true },
  { path: "memories", title: "Memories", admin: false },
  { path: "tags", title: "Tags", admin: false },
  { path: "entities", title: "Entities", admin: false },
  { path: "search", title: "Search", admin: false },
  { path: "live", title: "Live", admin: false },
  { path: "settings", title: "Settings", admin: true },
];

/** The page segment of the current URL (`/dashboard/tags/…` → `tags`); empty at `/dashboard`. */
const segmentOf = (pathname: string) => pathname.slice(BASE.length).split("/").filter(Boolean)[0] ?? "";

/** Client-side navigation: the gateway answers every /dashboard/* URL with the same page. */
export function navigate(path: string): void {
  history.pushState(null, "", `${BASE}/${path}`);
  dispatchEvent(new PopStateEvent("popstate"));
}

/** The current page segment, following back/forward and `navigate`. */
export function useRoute(): string {
  const [segment, setSegment] = useState(() => segmentOf(location.pathname));
  useEffect(() => {
    const update = () => setSegment(segmentOf(location.pathname));
    addEventListener("popstate", update);
    return () => removeEventListener("popstate", update);
  }, []);
  return segment;
}
