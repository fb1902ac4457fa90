import { CURRENT_LAYOUT } from "./layout";
import type { MigrationStep } from "./step";

/**
 * Every migration this release knows, one per layout it moves from, in order: the owner names the process whose
 * code implements it (the services run their own steps; `npm run migrate` runs them all).
 */
export const MIGRATIONS = [
  {
    from: 2,
    name: "search-chunked-vectors",
    owner: "search",
    summary: "every search index rebuilt so that a long memory has a vector per chunk of the model's input",
  },
] as const satisfies readonly { from: number; name: string; owner: string; summary: string }[];

/**
 * The steps from `layout` to the current one, in order, from the implementations given; an error names a layout
 * without a registered step or a step without its implementation.
 */
export function pendingSteps(layout: number, impls: MigrationStep[]): MigrationStep[] {
  const out: MigrationStep[] = [];
  for (let from = layout; from < CURRENT_LAYOUT; from++) {
    const spec = MIGRATIONS.find((m) => m.from === from);
    if (!spec) throw new Error(`no migration from layout ${from} is registered (data-layout/registry.ts)`);
    const impl = impls.find((s) => s.name === spec.name && s.from === from);
    if (!impl) throw new Error(`migration ${spec.name} (layout ${from} → ${from + 1}) is run by ${spec.owner}`);
    out.push(impl);
  }
  return out;
}

/** The owners of the steps from `layout` to the current one. */
export const ownersFrom = (layout: number): string[] => [
  ...new Set(MIGRATIONS.filter((m) => m.from >= layout && m.from < CURRENT_LAYOUT).map((m) => m.owner)),
];
