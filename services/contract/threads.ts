import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { Nullable, Uuid } from "./common";
import { Memory, PathId, SIBLINGS_MAX } from "./memories";

/** The most memories one memories.threads call reads: a context's matches (search's `limit` is 100 at most). */
export const THREADS_MAX = 100;

export const Thread = T.Object({
  id: Uuid(),
  ancestor_ids: T.Array(Uuid(), { description: "Parent first, root last." }),
  before: T.Array(Memory, { description: "Up to `siblings` siblings just before it, in thread order." }),
  after: T.Array(Memory, { description: "Up to `siblings` siblings just after it, in thread order." }),
});
export type Thread = Static<typeof Thread>;

/**
 * The threads of several memories in one call (search's context reads one per match): for each, what
 * memories.ancestors and memories.siblings answer, under the same restriction rules.
 */
export const memoryThreads = op({
  subject: "memories.threads",
  idempotent: true,
  input: T.Object(
    {
      items: T.Array(
        T.Object(
          {
            id: PathId,
            siblings: T.Integer({
              minimum: 0,
              maximum: SIBLINGS_MAX,
              description: "Siblings to read just before it and just after it; 0: none.",
            }),
          },
          { additionalProperties: false },
        ),
        { maxItems: THREADS_MAX },
      ),
    },
    { additionalProperties: false },
  ),
  output: T.Object({
    items: T.Array(Nullable(Thread), {
      description: "Aligned with `items`; null where the memory is unknown or outside the caller's restriction.",
    }),
  }),
  summary: "Internal: the ancestors and the siblings around each of several memories",
});
