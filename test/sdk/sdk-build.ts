import { resolve } from "node:path";
import { runProcess } from "../process-helpers";

export const PACKAGE_DIR = resolve(import.meta.dir, "../../clients/typescript");

let built: Promise<void> | null = null;

/** Builds the client package once per run (dist/: ESM + declarations), as `npm run build` there does. */
export function buildClient(): Promise<void> {
  built ??= (async () => {
    const { out, err, code } = await runProcess(["node", resolve(PACKAGE_DIR, "build.mjs")]);
    if (code !== 0) throw new Error(`the client build failed (${code}):\n${out}${err}`);
  })();
  return built;
}
