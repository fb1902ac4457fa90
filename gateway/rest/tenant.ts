import { getTenant, updateTenant } from "../../services/contract/tenant";
import { route } from "./route";

export const tenantRoutes = [
  route({ operationId: "getTenant", method: "GET", path: "/tenant", op: getTenant, tag: "tenant" }),
  route({ operationId: "updateTenant", method: "PATCH", path: "/tenant", op: updateTenant, tag: "tenant" }),
];
