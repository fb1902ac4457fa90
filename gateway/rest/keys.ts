import { createKey, getKey, listKeys, revokeKey, rotateKey, updateKey } from "../../services/contract/keys";
import { getUsage } from "../../services/contract/usage";
import { route } from "./route";

const KEY = { id: { notFound: "API key not found" } };

export const keyRoutes = [
  route({ operationId: "createKey", method: "POST", path: "/keys", op: createKey, tag: "keys" }),
  route({ operationId: "listKeys", method: "GET", path: "/keys", op: listKeys, list: true, tag: "keys" }),
  route({ operationId: "getKey", method: "GET", path: "/keys/:id", op: getKey, params: KEY, tag: "keys" }),
  route({ operationId: "updateKey", method: "PATCH", path: "/keys/:id", op: updateKey, params: KEY, tag: "keys" }),
  route({
    operationId: "rotateKey",
    method: "POST",
    path: "/keys/:id/rotate",
    op: rotateKey,
    params: KEY,
    tag: "keys",
  }),
  route({ operationId: "revokeKey", method: "DELETE", path: "/keys/:id", op: revokeKey, params: KEY, tag: "keys" }),
  route({ operationId: "getUsage", method: "GET", path: "/usage", op: getUsage, tag: "usage" }),
];
