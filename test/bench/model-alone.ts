import { createUseLitePool } from "../../services/search/embedder/pool";
import { pool } from "./load";

/** As many copies of the offline model as the search service runs (EMBEDDINGS_WORKERS, default 2). */
const COPIES = Number(process.env.EMBEDDINGS_WORKERS ?? 2);

/**
 * The model alone as the search service runs it: its copies, `batch` texts a call, one call in flight per copy.
 * Resolves texts/s; the ceiling of any ingest.
 */
export async function modelAloneRate(texts: string[], batch: number): Promise<{ rate: number; copies: number }> {
  const model = await createUseLitePool(COPIES, { blas: "auto", kernel: process.env.EMBEDDINGS_KERNEL });
  try {
    const calls = Math.ceil(texts.length / batch);
    const started = performance.now();
    await pool(calls, COPIES, async (c) => void (await model.embed(texts.slice(c * batch, (c + 1) * batch))));
    return { rate: texts.length / ((performance.now() - started) / 1000), copies: COPIES };
  } finally {
    await model.close?.();
  }
}
