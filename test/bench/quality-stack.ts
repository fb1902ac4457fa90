import { mkdirSync, mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack } from "../../scripts/stack/launch";
import type { ApiClient } from "../api";

/** A private stack for a retrieval-quality bench, its data under `.data-bench-<name>/`; `root` keeps its results. */
export async function qualityBenchStack(name: string) {
  const root = resolve(`.data-bench-${name}`);
  mkdirSync(root, { recursive: true });
  const stack = await startStack({
    dataDir: mkdtempSync(join(root, "stack-")),
    env: { LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "10000000" },
  });
  return { root, stack };
}

/** A POST that must succeed: a 5xx is retried with backoff (a loaded 2-core machine), anything else throws. */
export async function postOrThrow(api: ApiClient, path: string, body: unknown) {
  for (let attempt = 0; ; attempt++) {
    const res = await api.post(path, body);
    if (res.status === 200) return res.body;
    if (attempt >= 3 || res.status < 500) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    await Bun.sleep(200 * 2 ** attempt);
  }
}
