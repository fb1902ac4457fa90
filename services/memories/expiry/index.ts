/** A memory's expiry: the registry of spaces to look at, the purge, and the sweeper that runs it. */
export { registerEarliestExpiry } from "./register";
export { startSweeper, SWEEPER_DEFAULTS, type Sweeper, type SweeperOptions } from "./sweeper";
export type { Purge } from "./store";
