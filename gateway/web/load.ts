import type { Logger } from "../../services/kit/log";
import { readWebAssets, type WebAssets } from "./assets";
import { buildWebAssets } from "./build";

/**
 * The browser assets: read from `dir` when set (the container image builds them once), else bundled from
 * dashboard/ now, in memory. Either way the gateway starts only with every asset in hand.
 */
export async function loadWebAssets(dir: string, log: Logger): Promise<WebAssets> {
  const started = performance.now();
  const assets = dir ? readWebAssets(dir) : await buildWebAssets();
  const ms = Math.round(performance.now() - started);
  log.info(dir ? "web assets read" : "web assets built", { files: assets.files.size, ms, ...(dir ? { dir } : {}) });
  return assets;
}
