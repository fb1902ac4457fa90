import { hashTag, type Space } from "../../kit/space";

/**
 * Every Redis key of the webhooks service.
 *
 * Endpoints belong to a tenant's environment (hash tag `{tenant:env}`, services/kit/space.ts):
 * - `wh:{tenant:env}:<id>`   hash: url, events, enabled, secrets, health, times
 * - `whs:{tenant:env}`       sorted set of endpoint ids by creation time
 *
 * Deliveries live in one of 16 partitions, the first hex digit of their endpoint's id (hash tag
 * `{whp:<digit>}`), so an endpoint's whole delivery state, and the schedule it is in, change together in
 * one Redis function on one cluster slot, while every replica can find due work by polling 16 schedules:
 * - `whdue:{whp:p}`                      sorted set delivery id → when its next attempt is due (ms)
 * - `whactive:{whp:p}`                   hash `<endpoint>:<memory>` → the delivery of that lane now
 *                                        attempted (later events of the memory wait behind it)
 * - `whlane:{whp:p}:<endpoint>:<memory>` sorted set of the deliveries waiting in a lane, by memory version
 * - `whlog:{whp:p}:<endpoint>`           sorted set of the endpoint's deliveries by creation (listing)
 * - `whd:{whp:p}:<delivery>`             hash: the delivery (body, status, attempts)
 */
export const PARTITIONS = 16;

export const endpointKey = (space: Space, id: string) => `wh:${hashTag(space)}:${id}`;
export const endpointsKey = (space: Space) => `whs:${hashTag(space)}`;

export const partitionOf = (webhookId: string) => parseInt(webhookId[0]!, 16) % PARTITIONS;

const KIND = { due: "whdue", active: "whactive", lane: "whlane", log: "whlog", record: "whd" } as const;

export function partitionKeys(partition: number) {
  const tag = `{whp:${partition.toString(16)}}`;
  return {
    due: `${KIND.due}:${tag}`,
    active: `${KIND.active}:${tag}`,
    lane: (laneId: string) => `${KIND.lane}:${tag}:${laneId}`,
    log: (webhookId: string) => `${KIND.log}:${tag}:${webhookId}`,
    record: (deliveryId: string) => `${KIND.record}:${tag}:${deliveryId}`,
  };
}

/** A lane: the deliveries of one memory's events to one endpoint, attempted one at a time in version order. */
export const laneIdOf = (webhookId: string, memoryId: string) => `${webhookId}:${memoryId}`;

/**
 * The same names in Lua, for functions that meet delivery ids as they run: `use_partition_of(KEYS[1])` takes
 * the hash tag of a declared key, so every key built here is in its cluster slot.
 */
export const PARTITION_KEYS_LUA = `
local P = ''
local function use_partition_of(key)
  P = string.match(key, '{[^}]*}')
end
local PK = {
  lane = function(lane_id) return '${KIND.lane}:' .. P .. ':' .. lane_id end,
  log = function(webhook_id) return '${KIND.log}:' .. P .. ':' .. webhook_id end,
  record = function(id) return '${KIND.record}:' .. P .. ':' .. id end,
}
`;
