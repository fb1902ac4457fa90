import { buildContext, searchMemories } from "../../services/contract/search";
import { route } from "./route";

const resultCount = (data: unknown) => (data as { results: unknown[] }).results.length;

export const searchRoutes = [
  route({
    operationId: "searchMemories",
    method: "POST",
    path: "/search",
    op: searchMemories,
    total: resultCount,
    tag: "search",
  }),
  route({ operationId: "getContext", method: "POST", path: "/context", op: buildContext, tag: "search" }),
];
