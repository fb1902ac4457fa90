import type { ComponentChildren } from "preact";
import { BASE, navigate, type PageDef } from "./router";
import type { Session } from "./session";

interface LayoutProps {
  session: Session;
  pages: PageDef[];
  current: string;
  onSignOut: () => void;
  children: ComponentChildren;
}

/** The signed-in frame: who is signed in, the navigation, sign-out, and the current page. */
export function Layout({ session, pages, current, onSignOut, children }: LayoutProps) {
  const follow = (e: MouseEvent, path: string) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(path);
  };
  return (
    <div class="shell">
      <header class="top">
        <span class="brand">Memory Storage Service</span>
        <span class="who">
          Signed in with <strong>{session.key.name}</strong> ({session.key.prefix}…)
          {session.read_only && <span class="badge">read-only</span>}
        </span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <nav aria-label="Dashboard">
        <ul>
          {pages.map((p) => (
            <li key={p.path}>
              <a
                href={`${BASE}/${p.path}`}
                aria-current={p.path === current ? "page" : undefined}
                onClick={(e) => follow(e, p.path)}
              >
                {p.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main>{children}</main>
    </div>
  );
}
