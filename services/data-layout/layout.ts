/**
 * The layout of the stored data: which keys and fields the code expects, numbered for the whole keyspace. A
 * release knows the layouts up to its own (CURRENT_LAYOUT), reads the one before it while a migration runs
 * (expand/contract: it writes the older form until the keyspace's layout moves on), and refuses to start on a
 * newer one.
 *
 *   1  before versioned indexes: the search index without thread orders or occurred_at indexes
 *   2  the search index's thread orders (`o:` sets), occurred_at / valid_to / expires_at indexes, `latest`
 *   3  a long memory's vectors, one per chunk of the model's input (`<id>#<i>` elements, the doc's `vc`)
 *
 * A keyspace written before the layout was versioned has no `layout:version`: it is taken for
 * UNVERSIONED_LAYOUT, the layout of the last release without the key. Migrations are idempotent, so taking a
 * keyspace for older than it is costs only a pass that changes nothing; layout 1 needs no step of its own,
 * because the step to 3 rebuilds every search index (search's migrations/), whatever its form.
 */
export const CURRENT_LAYOUT = 3;

/** What a keyspace without `layout:version` (written by a release before layouts were versioned) is taken for. */
export const UNVERSIONED_LAYOUT = 2;

/** A layout this release cannot read: it stops at start. */
export class LayoutTooNewError extends Error {
  constructor(
    readonly layout: number,
    readonly known: number,
  ) {
    super(
      `the stored data has layout ${layout}, newer than this release's ${known}: ` +
        "run a release that knows it (a downgrade past a migration is not supported)",
    );
  }
}
