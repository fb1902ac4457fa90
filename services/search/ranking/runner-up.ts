/**
 * What a long memory's best chunk is compared with, to tell a passage that stands out (a fact deep in a document)
 * from a text that matches throughout (a long reply on the query's topic): the best of its chunks that do not
 * overlap the best one (two or more away: neighbours share 15% of their text, so a sentence on their boundary
 * makes both match). When every other chunk overlaps the best one (two chunks, or three with the best in the
 * middle), the best of those.
 *
 * `seen`: [chunk index, cosine] of the chunks known; a chunk not among them scores at most `bound` (the lowest
 * cosine the vector search returned). Undefined for a memory of one chunk or with no chunk known.
 */
export function runnerUp(chunks: number, seen: readonly (readonly [number, number])[], bound: number) {
  if (chunks <= 1 || seen.length === 0) return undefined;
  let [best, top] = seen[0]!;
  for (const [i, s] of seen) if (s > top) [best, top] = [i, s];
  const apartExists = chunks >= 4 || (chunks === 3 && best !== 1);
  let found: number | undefined;
  for (const [i, s] of seen) {
    const apart = Math.abs(i - best) >= 2;
    if (i !== best && apart === apartExists && (found === undefined || s > found)) found = s;
  }
  // Every chunk not seen scores at most `bound`, below every seen one.
  return found ?? bound;
}
