/** Runs a command to its end: what it wrote to stdout and to stderr, and its exit code. */
export async function runProcess(cmd: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}) {
  const proc = Bun.spawn(cmd, { ...opts, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { out, err, code };
}
