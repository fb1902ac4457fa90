import { embeddingChunks } from "../../services/search/embedder";
import {
  readUseLiteFiles,
  useLiteTokenizer,
  loadUseLiteWeights,
} from "../../services/search/embedder/use-lite-weights";

/**
 * How many tokens the default model reads to index a content: the tokens of each text the service embeds for
 * it, each cut at the model's input length. The model's cost is per token, so this is ingest's real unit.
 */
export function embeddedTokenCounter(): (content: string) => number {
  const files = readUseLiteFiles();
  const tokenize = useLiteTokenizer(files.vocabulary);
  const max = loadUseLiteWeights(files).maxLength;
  return (content) => embeddingChunks(content, max).reduce((n, t) => n + Math.min(max, tokenize(t).length), 0);
}
