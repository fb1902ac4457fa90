import { Provider } from "@urql/preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { graphqlClient } from "./client";
import { Layout } from "./layout";
import { Memories } from "./pages/memories";
import { Placeholder } from "./pages/placeholder";
import { SignIn } from "./pages/sign-in";
import { PAGES, useRoute } from "./router";
import { currentSession, type Session, signOut } from "./session";

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

  let content;
  if (hidden) content = <Placeholder title="Not available" text="This page needs a key with the admin scope." />;
  else if (page.path === "memories") content = <Memories />;
  else content = <Placeholder title={page.title} />;

  return (
    <Provider value={client}>
      <Layout session={session} pages={pages} current={page.path} onSignOut={end}>
        {content}
      </Layout>
    </Provider>
  );
}
