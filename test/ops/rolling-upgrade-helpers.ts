import { existsSync, rmSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { freePort } from "../../scripts/stack/infra";
import { spawnChild, type ServiceName, type Stack, type StackOptions } from "../../scripts/stack/launch";
import { runProcess } from "../process-helpers";

/** What a rolling upgrade needs: the release before as real code, replicas of this one, and traffic. */
export const ROOT = resolve(import.meta.dir, "../..");

/**
 * The release before this layout: the last commit that wrote the layout before the current one. Layout 3 (a long
 * memory's vectors per chunk) came with the commit that set search's INDEX_LAYOUT to "3"; its parent wrote
 * layout 2. A new layout moves this to the last commit before it.
 */
export async function previousReleaseCommit(): Promise<string> {
  const git = (args: string[]) => runProcess(["git", ...args], { cwd: ROOT });
  const found = await git([
    "log",
    "-1",
    "--format=%H",
    "-S",
    'export const INDEX_LAYOUT = "3"',
    "--",
    "services/search/store/fields.ts",
  ]);
  const commit = found.out.trim();
  if (found.code !== 0 || !commit) {
    throw new Error(`no commit sets INDEX_LAYOUT to "3" (a shallow clone? git fetch --unshallow): ${found.err}`);
  }
  return `${commit}^`;
}

/**
 * A checkout of `commit` as a git worktree in a temporary directory, with this checkout's node_modules (its
 * dependencies are today's: none of those the old code imports changed since). `remove` takes it away.
 */
export async function worktreeOf(commit: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = join(tmpdir(), `rolling-upgrade-${crypto.randomUUID().slice(0, 8)}`);
  const add = await runProcess(["git", "worktree", "add", "--detach", dir, commit], { cwd: ROOT });
  if (add.code !== 0) throw new Error(`git worktree add ${commit}: ${add.err}`);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return {
    dir,
    async remove() {
      await runProcess(["git", "worktree", "remove", "--force", dir], { cwd: ROOT });
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The old release's own launcher: Redis, NATS, its services and its gateway, all from its checkout. */
export async function startOldStack(dir: string, opts: StackOptions): Promise<Stack> {
  const launch = (await import(join(dir, "scripts/stack/launch.ts"))) as typeof import("../../scripts/stack/launch");
  return launch.startStack(opts);
}

/** A service replica of this checkout against the old stack's Redis and NATS. */
export const newService = (name: ServiceName, env: Record<string, string>, logDir: string) =>
  spawnChild(`new-${name}`, `services/${name}/main.ts`, env, logDir);

/** A gateway of this checkout on free ports; resolves once its /readyz is 200. */
export async function newGateway(env: Record<string, string>, logDir: string) {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const child = spawnChild(
    "new-gateway",
    "gateway/main.ts",
    { ...env, PORT: `${port}`, HEALTH_PORT: `${metricsPort}` },
    logDir,
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null) throw new Error(`the new gateway exited with ${child.proc.exitCode}`);
    const ok = await fetch(`${baseUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, baseUrl, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
    await Bun.sleep(200);
  }
  throw new Error(`the new gateway was not ready in 90 s; see ${child.logFile}`);
}

/** A gauge's value in Prometheus text (the first series of that name), or null. */
export async function gauge(metricsUrl: string, name: string): Promise<number | null> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(" ").pop()) : null;
}
