import { resolve } from "node:path";

export const PACKAGE_DIR = resolve(import.meta.dir, "../../clients/typescript");

let built: Promise<void> | null = null;

/** Builds the client package once per run (dist/: ESM + declarations), as `npm run build` there does. */
export function buildClient(): Promise<void> {
  built ??= (async () => {
    const proc = Bun.spawn(["node", resolve(PACKAGE_DIR, "build.mjs")], { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    if (code !== 0) throw new Error(`the client build failed (${code}):\n${out}${err}`);
  })();
  return built;
}
