// The set-up steps that install into the system or build with its compiler, as one background step: they run one
// after another because apt-get holds the system's dpkg lock, so OpenBLAS and Chromium cannot install at once.
import { ensureChromium } from "./chromium.mjs";
import { ensureDenseKernel, ensureOpenBlas } from "./embedder.mjs";

/**
 * @param {{ root: string, cacheDir: string, browser: boolean }} opts browser: the run includes the browser tests
 * @returns {{ kernel: string | null }} the embedding model's AVX-512 kernel, when built or cached
 */
export function ensureSystem({ root, cacheDir, browser }) {
  ensureOpenBlas();
  const kernel = ensureDenseKernel({ root, cacheDir });
  if (browser) ensureChromium();
  return { kernel: kernel ?? null };
}
