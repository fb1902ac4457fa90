import { createGraphiQLFetcher } from "@graphiql/toolkit";
import { GraphiQL } from "graphiql";
import "graphiql/graphiql.css";
import "./page.css";
import { createElement } from "react";
import { createRoot } from "react-dom/client";

/** GraphiQL at GET /graphql (a browser's Accept: text/html), bundled from npm and served from our own origin. */
const EXAMPLE = `# Every request needs the header  Authorization: Bearer <your API key>  (Headers tab below).
query RecentMemories {
  memories(limit: 10) {
    total
    hasMore
    items { id content createdAt tags { name color } parent { id content } }
  }
}
`;

const fetcher = createGraphiQLFetcher({ url: "/graphql" });

createRoot(document.getElementById("graphiql")!).render(
  createElement(GraphiQL, {
    fetcher,
    defaultQuery: EXAMPLE,
    // A header value must be Latin-1 text: the placeholder holds no "…".
    defaultHeaders: JSON.stringify({ Authorization: "Bearer YOUR_API_KEY" }, null, 2),
    defaultEditorToolsVisibility: "headers",
  }),
);
