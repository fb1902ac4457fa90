/**
 * The layout migrations whose keys search owns (data-layout/registry.ts names them): what `npm run migrate` and
 * the service's own run (main.ts) execute.
 */
import type { RedisClient } from "../../kit/redis-client";
import type { MigrationStep } from "../../data-layout/step";
import type { Rebuilder } from "../indexer";
import { chunkedVectorsStep } from "./chunked-vectors";

export const searchMigrations = (redis: RedisClient, rebuilder: Pick<Rebuilder, "rebuild">): MigrationStep[] => [
  chunkedVectorsStep(redis, rebuilder),
];
