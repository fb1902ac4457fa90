import { defineLibrary } from "../../kit/redis-functions";
import { PARTITION_KEYS_LUA } from "../store/keyspace";

/**
 * The webhooks service's Redis functions (lua/<name>.lua each), with the partition key names
 * (keyspace.ts) and lua/helpers.lua defined once at the top of the library.
 */
export const webhooksLibrary = await defineLibrary({
  name: "webhooks",
  dir: new URL("./", import.meta.url),
  shared: [{ lua: PARTITION_KEYS_LUA }, "helpers.lua"],
  functions: {
    "endpoint-create": "write",
    "endpoint-update": "write",
    "endpoint-delete": "write",
    "endpoint-health": "write",
    enqueue: "write",
    claim: "write",
    settle: "write",
    retry: "write",
    purge: "write",
    deliveries: "read",
  },
});

export type WebhooksCall = ReturnType<typeof webhooksLibrary.on>;
