import { createKey, getKey, listKeys, revokeKey, rotateKey, updateKey } from "../../services/contract/keys";
import { getUsage } from "../../services/contract/usage";
import { route } from "./route";

const KEY = { id: "API key not found" };

export const keyRoutes = [
  route({ method: "POST", path: "/keys", op: createKey, tag: "keys" }),
  route({ method: "GET", path: "/keys", op: listKeys, list: true, tag: "keys" }),
  route({ method: "GET", path: "/keys/:id", op: getKey, ids: KEY, tag: "keys" }),
  route({ method: "PATCH", path: "/keys/:id", op: updateKey, ids: KEY, tag: "keys" }),
  route({ method: "POST", path: "/keys/:id/rotate", op: rotateKey, ids: KEY, tag: "keys" }),
  route({ method: "DELETE", path: "/keys/:id", op: revokeKey, ids: KEY, tag: "keys" }),
  route({ method: "GET", path: "/usage", op: getUsage, tag: "usage" }),
];
