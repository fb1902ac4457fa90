/** Turns texts into vectors. Implementations: use-lite.ts (default, offline) and openai.ts (HTTP). */
export interface Embedder {
  /** Names the model; stored with every vector so a model change is noticed. */
  readonly model: string;
  readonly dimensions: number;
  /** How many tokens of a text the model reads; a longer memory is embedded in chunks (chunks.ts). */
  readonly maxTokens?: number;
  /** One vector per text, in order. Texts must not be empty. */
  embed(texts: string[]): Promise<Float32Array[]>;
  close?(): Promise<void>;
}

/** The input length assumed of a model that does not tell (EMBEDDINGS_MAX_TOKENS' default: BERT-sized models). */
export const DEFAULT_MAX_TOKENS = 512;

/** The model as a key-name-safe id: the vector set of a tenant is `…:v:<modelId>`. */
export const modelIdOf = (e: Pick<Embedder, "model" | "dimensions">) =>
  `${e.model.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80)}-${e.dimensions}`;

/**
 * The text given to the embedder for a query. USE-lite's cost grows with the text and its meaning is
 * dominated by the start. An empty string crashes the model, so blank text embeds a placeholder. A
 * memory's content is embedded in full, in chunks (chunks.ts).
 */
export const EMBED_MAX_CHARS = 2000;
export const embeddingText = (content: string) => content.trim().slice(0, EMBED_MAX_CHARS) || "(empty)";
