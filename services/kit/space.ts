import { requireCaller, type HandlerContext } from "./handler";

/**
 * One tenant's environment: the unit every store keys its data by. Every Redis key of a space carries
 * the hash tag `{tenant:env}`, so a script that touches several keys of one space stays atomic on a
 * Redis Cluster (one slot), while different tenants spread over shards.
 */
export interface Space {
  tenant: string;
  env: "live" | "test";
}

/** The hash tag of a space's keys. */
export const hashTag = (s: Space) => `{${s.tenant}:${s.env}}`;

/** The space of the caller a handler serves. */
export const spaceOf = (ctx: HandlerContext): Space => {
  const { tenant, env } = requireCaller(ctx);
  return { tenant, env };
};
