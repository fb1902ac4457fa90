/** From a query to ranked ids: candidates from the lexical index and the vector set, fused by ../ranking. */
export { createRetriever, type Retrieve, type RetrieveRequest, type Retrieved } from "./retrieve";
