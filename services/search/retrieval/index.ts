/**
 * From a query to ranked ids: candidates from the lexical index and the vector set, each completed
 * with the part the other side did not give it, fused by ../ranking. What is tuned here is latency
 * (how candidates are found: retrieve.ts, vector-search.ts); what is tuned in ../ranking is the order.
 */
export { EXPANSION_READ, keptBy, type Expansion, type Proposed } from "./expand";
export {
  createCandidateReader,
  EXPANSION,
  createRetriever,
  type Retrieve,
  type RetrieveRequest,
  type Retrieved,
} from "./retrieve";
