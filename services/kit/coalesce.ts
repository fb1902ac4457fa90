/**
 * Calls that share a key (e.g. a Redis slot) go one at a time, and what arrives meanwhile waits and goes as
 * the next call, in arrival order: one round trip per batch under load, no added wait when idle.
 */
export interface Coalescer<In, Out> {
  /** `input`'s answer, from the call of `key` it went in. */
  submit(key: string, input: In): Promise<Out>;
}

/**
 * `run(key, inputs)` answers each input, aligned with `inputs` (an Error there rejects that input alone); a
 * call that throws rejects its whole batch. A batch holds at most `max` inputs.
 */
export function createCoalescer<In, Out>(
  run: (key: string, inputs: In[]) => Promise<(Out | Error)[]>,
  max = 256,
): Coalescer<In, Out> {
  type Waiter = { input: In; resolve: (out: Out) => void; reject: (err: Error) => void };
  const inFlight = new Set<string>();
  const waiting = new Map<string, Waiter[]>();

  async function send(key: string, batch: Waiter[]): Promise<void> {
    inFlight.add(key);
    try {
      const outs = await run(
        key,
        batch.map((w) => w.input),
      );
      batch.forEach((w, i) => {
        const out = outs[i];
        if (out instanceof Error) w.reject(out);
        else if (i >= outs.length) w.reject(new Error(`a coalesced call answered ${outs.length} of ${batch.length}`));
        else w.resolve(out as Out);
      });
    } catch (err) {
      for (const w of batch) w.reject(err as Error);
    } finally {
      inFlight.delete(key);
      const next = waiting.get(key);
      if (next) {
        const batch = next.splice(0, max);
        if (next.length === 0) waiting.delete(key);
        void send(key, batch);
      }
    }
  }

  return {
    submit(key, input) {
      return new Promise<Out>((resolve, reject) => {
        const waiter = { input, resolve, reject };
        if (!inFlight.has(key)) return void send(key, [waiter]);
        const queued = waiting.get(key);
        if (queued) queued.push(waiter);
        else waiting.set(key, [waiter]);
      });
    },
  };
}
