import { createToken } from "../../services/contract/tokens";
import { route } from "./route";

export const tokenRoutes = [
  route({ operationId: "createToken", method: "POST", path: "/tokens", op: createToken, tag: "tokens" }),
];
