/** One batch of a step: where the next one starts ("0" once the step has walked everything) and what it did. */
export interface StepBatch {
  cursor: string;
  /** Items examined (the step says what an item is: a search index, a memory…). */
  seen: number;
  /** Items changed (in a dry run: that would change). */
  changed: number;
}

/**
 * A migration step, from layout `from` to `from + 1`, implemented by the module that owns the keys it changes.
 * It must be idempotent (a batch run twice leaves what one run leaves: a runner killed after a batch and before
 * saving its cursor redoes it) and must leave data that both the code before it and the code after it read.
 */
export interface MigrationStep {
  from: number;
  name: string;
  /** What it changes, in a sentence (logs, `npm run migrate`). */
  summary: string;
  /**
   * How long to wait once the migration is recorded and before its first batch: the time the running writers
   * take to notice it (layout-view.ts) and write the new form, so nothing written in the old form slips past
   * the walk.
   */
  settleMs: number;
  /** One batch of about `size` items from `cursor` ("0": the beginning). */
  batch(cursor: string, size: number, opts: { dryRun: boolean }): Promise<StepBatch>;
}
