/** A context for a language model: matches with their thread, fitted into a token budget and rendered. */
export { assemble, type Assembled, type Bundle } from "./assemble";
export type { Format, Piece } from "./render";
