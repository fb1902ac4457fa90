import { Type as T } from "@sinclair/typebox";

/** Settings of a process that runs migrations itself (search, for its steps), and defaults of `npm run migrate`. */
export const MigrationConfig = {
  MIGRATION_AUTO: T.Boolean({
    default: true,
    description:
      "Run the pending layout migrations this service owns once no replica of an older release answers; " +
      "false = only `npm run migrate` runs them.",
  }),
  MIGRATION_BATCH_SIZE: T.Integer({
    minimum: 1,
    maximum: 10_000,
    default: 10,
    description: "Items a migration handles per batch (search indexes, for the chunked-vectors step).",
  }),
  MIGRATION_PAUSE_MS: T.Integer({
    minimum: 0,
    maximum: 600_000,
    default: 1000,
    description: "Pause between a migration's batches.",
  }),
};
