/**
 * Runs a set-up function with the given environment (undefined removes a variable) and its `bootstrap:` lines
 * captured instead of printed; both are restored afterwards.
 */
export function withEnv<T>(env: Record<string, string | undefined>, fn: () => T): { result: T; lines: string[] } {
  const saved = { ...process.env };
  const write = process.stderr.write;
  const lines: string[] = [];
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  process.stderr.write = ((chunk: string) => (lines.push(...String(chunk).trimEnd().split("\n")), true)) as never;
  try {
    return { result: fn(), lines };
  } finally {
    process.stderr.write = write;
    process.env = saved;
  }
}
