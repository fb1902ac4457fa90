/** Text as both indexes see it: words, stemmed, without stop words (the lexical index's terms). */
export { queryTerms, termFrequencies } from "./tokenize";
