/** An entity (a person, place, project... that memories name): its store part. */
export type { EntityFields } from "./store";
