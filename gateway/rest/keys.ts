import { createKey, listKeys, revokeKey } from "../../services/contract/keys";
import { getUsage } from "../../services/contract/usage";
import { route } from "./route";

export const keyRoutes = [
  route({ operationId: "createKey", method: "POST", path: "/keys", op: createKey, tag: "keys" }),
  route({ operationId: "listKeys", method: "GET", path: "/keys", op: listKeys, list: true, tag: "keys" }),
  route({
    operationId: "revokeKey",
    method: "DELETE",
    path: "/keys/:id",
    op: revokeKey,
    params: { id: { notFound: "API key not found" } },
    tag: "keys",
  }),
  route({ operationId: "getUsage", method: "GET", path: "/usage", op: getUsage, tag: "usage" }),
];
