/** Text as both indexes see it: words, stemmed, without stop words (the lexical index's terms). */
export { queryNames, queryTerms, termFrequencies } from "./tokenize";
