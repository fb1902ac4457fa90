import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { BLAS_CANDIDATES } from "./blas";
import { denseVariant } from "./dense";
import { createUseLiteEmbedder, type UseLiteEmbedder } from "./use-lite";

// `npm test` (scripts/bootstrap.mjs) installs Debian's libopenblas0-pthread, so it is here.
const installed = BLAS_CANDIDATES.find((p) => existsSync(p));

/** 1 to ~200 words: short and long inputs, padded batches, and texts past the model's 128 tokens. */
const TEXTS = [
  "Hi",
  "The cat sat on the mat.",
  "Grace called the dentist on Monday to move the appointment to Friday afternoon.",
  "Quarterly revenue grew by ten percent, mostly from the new subscription plan launched in spring.",
  Array.from({ length: 60 }, (_, i) => ["we", "walked", "along", "the", "river", "after", "dinner"][i % 7]).join(" "),
  "Ünïcödé tèxt — with emoji 🎉 and 中文 too",
  Array.from({ length: 200 }, (_, i) => `token${i}`).join(" "),
];

// On a machine with AVX-512, or AVX2 with FMA and F16C, `npm test` (scripts/bootstrap.mjs) has built the
// weight-product kernel.
const kernelPath = process.env.EMBEDDINGS_KERNEL;
const hasKernel = denseVariant() !== null;

let native: UseLiteEmbedder;
let kernelled: UseLiteEmbedder;
let wasm: UseLiteEmbedder;
beforeAll(async () => {
  [native, kernelled, wasm] = await Promise.all([
    createUseLiteEmbedder({ blas: "auto" }),
    createUseLiteEmbedder({ blas: "auto", kernel: kernelPath }),
    createUseLiteEmbedder({ blas: "off" }),
  ]);
});
afterAll(async () => {
  await Promise.all([native?.close?.(), kernelled?.close?.(), wasm?.close?.()]);
});

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe("USE-lite's forward pass on OpenBLAS", () => {
  test("OpenBLAS is installed and used when EMBEDDINGS_BLAS=auto; off runs the graph on tfjs's WASM kernels", () => {
    expect(installed).toBeDefined();
    expect(native.blas).toBe(installed!);
    expect(wasm.blas).toBeNull();
    expect(native.kernel).toBeNull();
    // The kernel does the weight products where the CPU runs a variant of it (and OpenBLAS elsewhere).
    if (hasKernel) expect(kernelled.kernel).toBe(kernelPath!);
    else expect(kernelled.kernel).toBeNull();
  });

  test("the same vectors as the TensorFlow graph on tfjs, one text at a time and stacked in one call", async () => {
    const [batchNative, batchKernel, batchWasm] = await Promise.all([
      native.embed(TEXTS),
      kernelled.embed(TEXTS),
      wasm.embed(TEXTS),
    ]);
    for (let i = 0; i < TEXTS.length; i++) {
      const [[single], [singleKernel]] = await Promise.all([native.embed([TEXTS[i]!]), kernelled.embed([TEXTS[i]!])]);
      expect(dot(batchNative[i]!, batchWasm[i]!)).toBeGreaterThan(0.99999);
      expect(dot(single!, batchWasm[i]!)).toBeGreaterThan(0.99999);
      expect(dot(batchKernel[i]!, batchWasm[i]!)).toBeGreaterThan(0.99999);
      expect(dot(singleKernel!, batchWasm[i]!)).toBeGreaterThan(0.99999);
    }
  });

  test("a text's vector is the same bit for bit whatever it is embedded with", async () => {
    // Batches of many long texts and a text alone once took different paths (kernel, OpenBLAS) by the call's size,
    // whose roundings differ: a ranking then depended on the order writes arrived in.
    const long = "The committee reviewed the budget for the river project and asked for a second estimate. ".repeat(5);
    const short = "Grace moved the dentist appointment to Friday.";
    const others = Array.from({ length: 40 }, (_, i) => `${i} ${long}`);
    const [[longAlone], [shortAlone], together] = await Promise.all([
      kernelled.embed([long]),
      kernelled.embed([short]),
      kernelled.embed([...others, long, short]),
    ]);
    expect([...together.at(-2)!]).toEqual([...longAlone!]);
    expect([...together.at(-1)!]).toEqual([...shortAlone!]);
  });

  test("a library path that cannot be loaded is a start-up error, not a silent fallback", async () => {
    await expect(createUseLiteEmbedder({ blas: "/nonexistent/libopenblas.so.0" })).rejects.toThrow(
      "cannot load OpenBLAS",
    );
    if (hasKernel)
      await expect(createUseLiteEmbedder({ blas: "auto", kernel: "/nonexistent/dense.so" })).rejects.toThrow(
        "EMBEDDINGS_KERNEL: cannot load",
      );
  });
});
