import { createKey, listKeys, revokeKey } from "../../services/contract/keys";
import { getUsage } from "../../services/contract/usage";
import { route } from "./route";

export const keyRoutes = [
  route({ method: "POST", path: "/keys", op: createKey, tag: "keys" }),
  route({ method: "GET", path: "/keys", op: listKeys, list: true, tag: "keys" }),
  route({ method: "DELETE", path: "/keys/:id", op: revokeKey, ids: { id: "API key not found" }, tag: "keys" }),
  route({ method: "GET", path: "/usage", op: getUsage, tag: "usage" }),
];
