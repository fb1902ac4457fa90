// Optional speed-ups for the offline embedding model. Without them the model still works, only slower.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { log, run, tail, which } from "./shell.mjs";
import { aptInstall } from "./system-apt.mjs";

// The search service runs its model's forward pass on OpenBLAS when the library is there
// (services/search/embedder/blas.ts lists the same paths); without it the model is ~3× slower.
const OPENBLAS = ["x86_64", "aarch64"].flatMap((arch) => [
  `/usr/lib/${arch}-linux-gnu/libopenblas.so.0`,
  `/usr/lib/${arch}-linux-gnu/openblas-pthread/libopenblas.so.0`,
]);

export function ensureOpenBlas() {
  if (process.env.EMBEDDINGS_URL || process.env.EMBEDDINGS_BLAS === "off") return;
  if (OPENBLAS.some((p) => existsSync(p))) return;
  log("installing OpenBLAS (libopenblas0-pthread) with apt-get…");
  const r = aptInstall("libopenblas0-pthread");
  if (!r) log("OpenBLAS is missing and apt-get needs root or passwordless sudo: the embedding model runs ~3× slower");
  else if (!r.ok)
    log(`apt-get install libopenblas0-pthread failed; the embedding model runs ~3× slower:\n${tail(r.out)}`);
}

/**
 * The model's products with its weights run faster on a small kernel (AVX-512, or AVX2 with FMA and F16C) than on
 * OpenBLAS (services/search/embedder/dense.ts). Built once per source version into the cache; the search service
 * checks the CPU again before using it. Without it, OpenBLAS does the products.
 * @returns {string | undefined} the kernel's path
 */
export function ensureDenseKernel({ root, cacheDir }) {
  if (process.env.EMBEDDINGS_URL || process.env.EMBEDDINGS_KERNEL !== undefined) return undefined;
  let cpu = "";
  try {
    cpu = readFileSync("/proc/cpuinfo", "utf8");
  } catch {}
  const flags = /^flags\s*:(.*)$/m.exec(cpu)?.[1]?.split(/\s+/) ?? [];
  const avx2 = flags.includes("avx2") && flags.includes("fma") && flags.includes("f16c");
  if (!flags.includes("avx512f") && !avx2) return undefined;
  const sourceFile = join(root, "services", "search", "embedder", "dense.c");
  const source = readFileSync(sourceFile);
  const out = join(cacheDir, `dense-${createHash("sha256").update(source).digest("hex").slice(0, 16)}.so`);
  if (existsSync(out)) return out;
  const cc = which("cc") ?? which("gcc");
  if (!cc) {
    log("no C compiler (cc): the embedding model's products stay on OpenBLAS");
    return undefined;
  }
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  const r = run(cc, ["-O3", "-shared", "-fPIC", "-o", tmp, sourceFile]);
  if (!r.ok) {
    rmSync(tmp, { force: true });
    log(`building ${sourceFile} failed; the embedding model's products stay on OpenBLAS:\n${tail(r.out)}`);
    return undefined;
  }
  renameSync(tmp, out);
  log("built the embedding model's weight-product kernel");
  return out;
}
