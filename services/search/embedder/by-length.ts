/** Embeds texts: one vector per text, in order. */
export type EmbedTexts = (texts: string[]) => Float32Array[];

/**
 * Texts of up to this many characters (~60–90 tokens: queries, short memories) go to the forward pass on the
 * kernel, longer ones to the one on OpenBLAS, whose blocked sgemm runs long chunks ~25–35% faster here (measured
 * on AVX2 in the model: 26.5–34 against 18–22 chunks of 128 tokens a second).
 */
export const KERNEL_MAX_CHARS = 300;

/**
 * Routes each text by its own length, never by its batch: the two paths round differently (by ~1e-6), and a
 * memory's vector must not depend on what it happened to be embedded with (a ranking would then depend on the
 * order writes arrive in). Each group's texts are still stacked into one call.
 */
export function byTextLength(short: EmbedTexts, long: EmbedTexts, maxChars = KERNEL_MAX_CHARS): EmbedTexts {
  return (texts) => {
    const isShort = texts.map((t) => t.length <= maxChars);
    const shortOnes = texts.filter((_, i) => isShort[i]);
    const longOnes = texts.filter((_, i) => !isShort[i]);
    const a = shortOnes.length > 0 ? short(shortOnes) : [];
    const b = longOnes.length > 0 ? long(longOnes) : [];
    let i = 0;
    let j = 0;
    return isShort.map((s) => (s ? a[i++]! : b[j++]!));
  };
}
