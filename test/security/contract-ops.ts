import type { Operation } from "../../services/contract/op";
import * as entities from "../../services/contract/entities";
import * as erase from "../../services/contract/erase";
import * as keys from "../../services/contract/keys";
import * as memories from "../../services/contract/memories";
import * as portability from "../../services/contract/portability";
import * as search from "../../services/contract/search";
import * as tags from "../../services/contract/tags";
import * as tenant from "../../services/contract/tenant";
import * as tokens from "../../services/contract/tokens";
import * as usage from "../../services/contract/usage";
import * as webhooks from "../../services/contract/webhooks";

const MODULES = [entities, erase, keys, memories, portability, search, tags, tenant, tokens, usage, webhooks];

const isOp = (v: unknown): v is Operation =>
  typeof v === "object" && v !== null && typeof (v as Operation).subject === "string" && "validate" in v;

/** Every operation of the contract a public caller may run: those with a scope. */
export const publicOps = (): Operation[] => [
  ...new Set(
    MODULES.flatMap((m) =>
      Object.values(m)
        .filter(isOp)
        .filter((op) => op.scope !== undefined),
    ),
  ),
];

/** The operations behind the streamed routes (export, import, erase). */
export const STREAMED_OPS: Operation[] = [
  portability.exportPage,
  portability.importTags,
  portability.importRecords,
  erase.eraseTenant,
].filter(isOp);

/** Operations reached only through nested GraphQL fields (batch reads of the per-request loaders). */
export const NESTED_OPS: Operation[] = [
  memories.getMemories,
  memories.memoryAncestors,
  tags.getTags,
  tags.tagsOfMemories,
  entities.getEntities,
].filter(isOp);
