import type Redis from "ioredis";
import type { Cluster } from "ioredis";

/** A connection to single-node Redis or to a Redis Cluster: every store takes either. A leaf module. */
export type RedisClient = Redis | Cluster;
