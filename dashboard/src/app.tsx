import type { FunctionComponent } from "preact";
import { Provider } from "@urql/preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { graphqlClient } from "./client";
import { Layout } from "./layout";
import { EntitiesPage } from "./pages/entities/entities-page";
import { KeysPage } from "./pages/keys/keys-page";
import { LivePage } from "./pages/live/live-page";
import { MemoriesPage } from "./pages/memories/memories-page";
import { SearchPage } from "./pages/search/search-page";
import { SettingsPage } from "./pages/settings/settings-page";
import { SignIn } from "./pages/sign-in";
import { TagsPage } from "./pages/tags/tags-page";
import { UsagePage } from "./pages/usage/usage-page";
import { PAGES, useRoute } from "./router";
import { currentSession, type Session, signOut } from "./session";
import { SessionContext } from "./session-context";

/** Each page's component, by its path segment. */
const CONTENT: Record<string, FunctionComponent> = {
  keys: KeysPage,
  usage: UsagePage,
  memories: MemoriesPage,
  tags: TagsPage,
  entities: EntitiesPage,
  search: SearchPage,
  live: LivePage,
  settings: SettingsPage,
};

function NotAvailable() {
  return (
    <>
      <h1>Not available</h1>
      <p>This page needs a key with the admin scope.</p>
    </>
  );
}

type State = { phase: "loading" } | { phase: "signed-out" } | { phase: "signed-in"; session: Session };

/** Sign-in, or the signed-in shell with the page the URL names. */
export function App() {
  const [state, setState] = useState<State>({ phase: "loading" });
  const segment = useRoute();

  useEffect(() => {
    currentSession().then(
      (session) => setState(session ? { phase: "signed-in", session } : { phase: "signed-out" }),
      () => setState({ phase: "signed-out" }),
    );
  }, []);

  const session = state.phase === "signed-in" ? state.session : null;
  // One client per session: signing in again starts with an empty cache.
  const client = useMemo(() => (session ? graphqlClient(session) : null), [session]);

  if (state.phase === "loading") return <p class="loading">Loading…</p>;
  if (!session || !client) return <SignIn onSignedIn={(s) => setState({ phase: "signed-in", session: s })} />;

  const pages = PAGES.filter((p) => !p.admin || !session.read_only);
  const page = pages.find((p) => p.path === segment) ?? pages.find((p) => p.path === "memories")!;
  const hidden = PAGES.some((p) => p.path === segment && p.admin) && session.read_only;
  const end = async () => {
    await signOut(session).catch(() => undefined);
    setState({ phase: "signed-out" });
  };

  const Content = hidden ? NotAvailable : CONTENT[page.path]!;
  return (
    <SessionContext.Provider value={session}>
      <Provider value={client}>
        <Layout session={session} pages={pages} current={page.path} onSignOut={end}>
          <Content key={page.path} />
        </Layout>
      </Provider>
    </SessionContext.Provider>
  );
}
