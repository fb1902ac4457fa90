/** Turns texts into vectors. Implementations: use-lite.ts (default, offline) and openai.ts (HTTP). */
export interface Embedder {
  /** Names the model; stored with every vector so a model change is noticed. */
  readonly model: string;
  readonly dimensions: number;
  /** One vector per text, in order. Texts must not be empty. */
  embed(texts: string[]): Promise<Float32Array[]>;
  close?(): Promise<void>;
}

/** The model as a key-name-safe id: the vector set of a tenant is `…:v:<modelId>`. */
export const modelIdOf = (e: Pick<Embedder, "model" | "dimensions">) =>
  `${e.model.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80)}-${e.dimensions}`;

/**
 * The text given to the embedder, for a memory's content and for a query alike. USE-lite's cost
 * grows with the text and its meaning is dominated by the start; the lexical index covers the whole
 * content. An empty string crashes the model, so blank text embeds a placeholder.
 */
export const EMBED_MAX_CHARS = 2000;
export const embeddingText = (content: string) => content.trim().slice(0, EMBED_MAX_CHARS) || "(empty)";
