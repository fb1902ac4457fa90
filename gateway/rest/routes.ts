import { keyRoutes } from "./keys";
import { tagRoutes } from "./tags";
import { memoryRoutes } from "./memories";
import { entityRoutes } from "./entities";
import type { RestRoute } from "./route";
import { searchRoutes } from "./search";
import { webhookRoutes } from "./webhooks";
import { tenantRoutes } from "./tenant";
import { tokenRoutes } from "./tokens";

/** Every REST route of /v1; each domain contributes its own list. */
export const restRoutes: RestRoute[] = [
  ...keyRoutes,
  ...tagRoutes,
  ...memoryRoutes,
  ...entityRoutes,
  ...searchRoutes,
  ...webhookRoutes,
  ...tenantRoutes,
  ...tokenRoutes,
];
