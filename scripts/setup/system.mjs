// The set-up steps that install into the system or build with its compiler, as one background step: they run one
// after another because apt-get holds the system's dpkg lock, so OpenBLAS, Chromium and the Python packages cannot
// install at once.
import { ensureChromium } from "./chromium.mjs";
import { ensureDenseKernel, ensureOpenBlas } from "./embedder.mjs";
import { ensurePythonPackages } from "./python.mjs";

/** The steps, replaceable in a test. */
export const SYSTEM_STEPS = { ensureOpenBlas, ensureDenseKernel, ensureChromium, ensurePythonPackages };

/**
 * @param {{ root: string, cacheDir: string, browser: boolean, python?: boolean }} opts browser: the run includes
 *   the browser tests; python: it includes the Python SDK's (test/python)
 * @returns {{ kernel: string | null }} the embedding model's weight-product kernel, when built or cached
 */
export function ensureSystem({ root, cacheDir, browser, python = false }, steps = SYSTEM_STEPS) {
  steps.ensureOpenBlas();
  const kernel = steps.ensureDenseKernel({ root, cacheDir });
  if (browser) steps.ensureChromium();
  if (python) steps.ensurePythonPackages();
  return { kernel: kernel ?? null };
}
