import { GraphiQL } from "graphiql";
import "graphiql/graphiql.css";
import "./page.css";
import { createElement as h, useMemo, useState } from "react";
import { createRoot } from "react-dom/client";
import { AuthBar } from "./auth-bar";
import { type Credential, fetcherFor, initialCredential } from "./credential";

/** GraphiQL at GET /graphql (a browser's Accept: text/html), bundled from npm and served from our own origin. */
const EXAMPLE = `# Runs with your dashboard session, or with the API key entered above.
query RecentMemories {
  memories(limit: 10) {
    total
    hasMore
    items { id content createdAt tags { name color } parent { id content } }
  }
}
`;

function Page({ initial }: { initial: Credential }) {
  const [credential, setCredential] = useState(initial);
  const fetcher = useMemo(
    () => fetcherFor(credential, (notice) => setCredential({ kind: "none", notice })),
    [credential],
  );
  return h(
    "div",
    { className: "graphiql-page" },
    h(AuthBar, { credential, onChange: setCredential }),
    h(
      "div",
      { className: "graphiql-host" },
      h(GraphiQL, {
        fetcher,
        // Without a credential nothing is asked (null: no introspection); a new fetcher fetches the schema again.
        schema: credential.kind === "none" ? null : undefined,
        defaultQuery: EXAMPLE,
        // A key typed into the headers editor never reaches localStorage (GraphiQL's default, said out loud).
        shouldPersistHeaders: false,
      }),
    ),
  );
}

const mount = document.getElementById("graphiql")!;
// The server marks the page when its request carried the dashboard's session cookie (gateway/web/routes.ts).
initialCredential(mount.dataset.session === "cookie").then((initial) => createRoot(mount).render(h(Page, { initial })));
