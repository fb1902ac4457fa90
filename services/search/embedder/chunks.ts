/**
 * A memory's content as the texts its vectors embed: one text when the model reads it whole, else
 * overlapping chunks of what the model reads, so a passage anywhere in a long memory (a pasted document,
 * a long reply) is found by meaning. Search keeps one result per memory, scored by its best chunk.
 */

/**
 * Characters per token, counted low so a chunk fits the model: USE-lite's tokenizer reads 3.6 characters
 * a token on LongMemEval's conversations; BPE and WordPiece models read about 4 in English.
 */
export const CHARS_PER_TOKEN = 3.2;
/** Share of a chunk repeated at the start of the next one, so a sentence cut by one is whole in another. */
export const CHUNK_OVERLAP = 0.15;
/** At most this many vectors per memory (100,000 characters, the largest content, make ~260 for USE-lite). */
export const MAX_CHUNKS = 512;

/** How many characters of text a chunk holds for a model that reads `maxTokens` tokens. */
export const chunkChars = (maxTokens: number) => Math.max(64, Math.floor(maxTokens * CHARS_PER_TOKEN));

/** Where to cut near `at`: after the last whitespace in the chunk's last fifth, else at `at`. */
function cutAt(text: string, start: number, at: number): number {
  if (at >= text.length) return text.length;
  const floor = at - Math.floor((at - start) / 5);
  for (let i = at; i > floor; i--) if (/\s/.test(text[i - 1]!)) return i;
  return at;
}

/** Where the next chunk starts: the first word start after `at` (within the overlap), else `at`. */
function startAt(text: string, at: number, end: number): number {
  for (let i = at; i < end; i++) if (/\s/.test(text[i - 1] ?? " ") && !/\s/.test(text[i]!)) return i;
  return at;
}

/** The texts embedded for a content (at least one; blank content embeds a placeholder: "" crashes USE-lite). */
export function embeddingChunks(content: string, maxTokens: number): string[] {
  const text = content.trim();
  if (text === "") return ["(empty)"];
  const size = chunkChars(maxTokens);
  if (text.length <= size) return [text];
  const overlap = Math.floor(size * CHUNK_OVERLAP);
  const out: string[] = [];
  for (let start = 0; out.length < MAX_CHUNKS; ) {
    const end = cutAt(text, start, start + size);
    out.push(text.slice(start, end).trim());
    if (end >= text.length) break;
    start = startAt(text, Math.max(start + 1, end - overlap), end);
  }
  return out.filter((c) => c !== "");
}
