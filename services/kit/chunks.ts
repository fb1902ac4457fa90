/** `xs` cut in order into runs of `size` (the last may be shorter): the batches of a bounded call. */
export const chunksOf = <X>(xs: readonly X[], size: number): X[][] =>
  Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size));
