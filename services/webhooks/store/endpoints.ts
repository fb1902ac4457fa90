import type { RedisClient } from "../../kit/redis-functions";
import type { Space } from "../../kit/space";
import { hashOfPairs } from "../../kit/redis-replies";
import { MAX_WEBHOOKS } from "../../contract/webhooks";
import { endpointFields, endpointOf, type EndpointRecord } from "../record";
import { endpointKey, endpointsKey } from "./keyspace";
import type { WebhooksCall } from "../lua/library";

/** Endpoint records of a tenant's environment (keyspace.ts). */
export function endpointStore(redis: RedisClient, call: WebhooksCall) {
  const get = async (space: Space, id: string): Promise<EndpointRecord | null> => {
    const h = await redis.hgetall(endpointKey(space, id));
    return h.id ? endpointOf(h) : null;
  };
  return {
    get,

    async insert(space: Space, rec: EndpointRecord): Promise<void> {
      const { set } = endpointFields(rec);
      const keys = [endpointKey(space, rec.id), endpointsKey(space)];
      await call("endpoint-create", keys, [rec.id, Date.parse(rec.created_at), MAX_WEBHOOKS, JSON.stringify(set)]);
    },

    /**
     * Writes the fields given (null removes one) if the endpoint exists (else NOT_FOUND) and the `expected`
     * fields still hold what the caller read; null when one changed meanwhile.
     */
    async update(
      space: Space,
      id: string,
      change: Partial<EndpointRecord>,
      expected: Partial<EndpointRecord> = {},
    ): Promise<EndpointRecord | null> {
      const { set, unset } = endpointFields(change);
      const args = [JSON.stringify(set), JSON.stringify(unset), JSON.stringify(endpointFields(expected).set)];
      const reply = await call("endpoint-update", [endpointKey(space, id)], args);
      return Array.isArray(reply) ? endpointOf(hashOfPairs(reply as string[])) : null;
    },

    async delete(space: Space, id: string): Promise<void> {
      await call("endpoint-delete", [endpointKey(space, id), endpointsKey(space)], [id]);
    },

    /** A success clears the failure record; a failure starts it and may disable the endpoint (then true). */
    async health(space: Space, id: string, ok: boolean, now: number, disableAfterMs: number): Promise<boolean> {
      const args = [ok ? "1" : "", now, new Date(now).toISOString(), disableAfterMs];
      return (await call("endpoint-health", [endpointKey(space, id)], args)) === 1;
    },

    async page(space: Space, offset: number, limit: number): Promise<{ records: EndpointRecord[]; total: number }> {
      const [ids, total] = await Promise.all([
        redis.zrevrange(endpointsKey(space), offset, offset + limit - 1),
        redis.zcard(endpointsKey(space)),
      ]);
      const records = await Promise.all(ids.map((id) => get(space, id)));
      return { records: records.filter((r): r is EndpointRecord => r !== null), total };
    },

    /** Every endpoint of a space (at most MAX_WEBHOOKS): whom an event may go to. */
    async all(space: Space): Promise<EndpointRecord[]> {
      return (await this.page(space, 0, MAX_WEBHOOKS)).records;
    },
  };
}

export type EndpointStore = ReturnType<typeof endpointStore>;
