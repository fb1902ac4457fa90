import type { Embedder } from "./embedder";

export interface BatcherOptions {
  /** Most texts per model call. */
  maxBatch: number;
  /** Model calls at once: 1 for the local model (one worker), more for an HTTP endpoint. */
  concurrency: number;
}

/**
 * Who is waiting, most urgent first: a search query; a write waiting for read-your-writes
 * (`search.index`); background work (the event indexer catching up, rebuilds).
 */
export const LANES = ["query", "write", "background"] as const;
export type Lane = (typeof LANES)[number];

interface Job {
  text: string;
  lane: Lane;
  done: Promise<Float32Array>;
  resolve: (v: Float32Array) => void;
  reject: (e: Error) => void;
}

/**
 * Micro-batching: texts asked for in the same tick (many requests, or one indexing batch) go to the
 * model together, up to `maxBatch` per call. A text already queued or being embedded is not
 * embedded twice (an index call and the event for the same write ask for the same content), and
 * asking for it from a more urgent lane moves it up. Lanes are served strictly by priority.
 */
export function createBatcher(base: Embedder, opts: BatcherOptions) {
  const queues: Record<Lane, Job[]> = { query: [], write: [], background: [] };
  const known = new Map<string, Job>();
  let running = 0;
  let scheduled = false;

  const pump = () => {
    scheduled = false;
    while (running < opts.concurrency) {
      const lane = LANES.find((l) => queues[l].length > 0);
      if (!lane) return;
      const jobs = queues[lane].splice(0, opts.maxBatch);
      running++;
      void run(jobs).finally(() => {
        running--;
        pump();
      });
    }
  };

  async function run(jobs: Job[]): Promise<void> {
    try {
      const vectors = await base.embed(jobs.map((j) => j.text));
      jobs.forEach((j, i) => j.resolve(vectors[i]!));
    } catch (err) {
      for (const j of jobs) j.reject(err as Error);
    } finally {
      for (const j of jobs) known.delete(j.text);
    }
  }

  function request(text: string, lane: Lane): Promise<Float32Array> {
    const existing = known.get(text);
    if (existing) {
      const queue = queues[existing.lane];
      const at = queue.indexOf(existing);
      if (at >= 0 && LANES.indexOf(lane) < LANES.indexOf(existing.lane)) {
        queue.splice(at, 1);
        existing.lane = lane;
        queues[lane].push(existing);
      }
      return existing.done;
    }
    let resolve!: Job["resolve"];
    let reject!: Job["reject"];
    const done = new Promise<Float32Array>((res, rej) => ((resolve = res), (reject = rej)));
    const job: Job = { text, lane, done, resolve, reject };
    known.set(text, job);
    queues[lane].push(job);
    return done;
  }

  const lane = (name: Lane): Embedder => ({
    model: base.model,
    dimensions: base.dimensions,
    maxTokens: base.maxTokens,
    embed(texts) {
      if (texts.some((t) => t.length === 0)) return Promise.reject(new Error("cannot embed an empty string"));
      const done = Promise.all(texts.map((t) => request(t, name)));
      if (!scheduled) {
        scheduled = true;
        // After the current tick: whatever else arrives meanwhile joins the same batch.
        setImmediate(pump);
      }
      return done;
    },
    close: base.close?.bind(base),
  });

  return { lane, pending: () => known.size };
}
