import { attachTags, detachTag, tagsOfMemories, MAX_TAGS_PER_MEMORY, type TagRef } from "../../contract/tags";
import { notFound } from "../../contract/errors";
import { isUuid } from "../../contract/validation";
import { bind, type Handler } from "../../kit/handler";
import { spaceOf } from "../../kit/space";
import type { TagStore } from "../store";
import { sortRefs } from "../record";
import type { NotifyTagsChanged } from "../notify";
import { tagNotFound } from "./tags";
import type { LinkCheck } from "../restriction";

export interface LinksDeps {
  store: TagStore;
  notify: NotifyTagsChanged;
  maxPerMemory?: number;
  /** A browser token's restriction on links (restriction.ts); absent: none is checked. */
  mayLink?: LinkCheck;
}

const memoryNotFound = () => notFound("Memory");

export function linkHandlers(deps: LinksDeps) {
  const cap = deps.maxPerMemory ?? MAX_TAGS_PER_MEMORY;

  /** All or nothing: an unknown memory or any unknown (or malformed) tag id attaches nothing. */
  const attach: Handler<typeof attachTags> = async (input, ctx) => {
    const space = spaceOf(ctx);
    if (!isUuid(input.memory_id)) throw memoryNotFound();
    const tagIds = [...new Set(input.tag_ids)];
    if (!tagIds.every(isUuid)) throw tagNotFound();
    await deps.mayLink?.(ctx, input.memory_id);
    const res = await deps.store.attach(space, input.memory_id, tagIds, cap);
    if (res.added > 0) await deps.notify(ctx, [input.memory_id]);
    const refs = await deps.store.refs(space, res.tagIds);
    return {
      memory_id: input.memory_id,
      tags: sortRefs([...refs.values()]),
      added: res.added,
      skipped: tagIds.length - res.added,
    };
  };

  /** Idempotent: a tag that exists but is not attached answers `removed: false`. */
  const detach: Handler<typeof detachTag> = async (input, ctx) => {
    const space = spaceOf(ctx);
    if (!isUuid(input.memory_id)) throw memoryNotFound();
    if (!isUuid(input.tag_id)) throw tagNotFound();
    await deps.mayLink?.(ctx, input.memory_id, input.tag_id);
    const res = await deps.store.detach(space, input.memory_id, input.tag_id);
    if (res.removed) await deps.notify(ctx, [input.memory_id]);
    return { memory_id: input.memory_id, tag_id: input.tag_id, removed: res.removed };
  };

  const ofMemories: Handler<typeof tagsOfMemories> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const ids = input.memory_ids.map((id) => (isUuid(id) ? id : null));
    const valid = ids.filter((id): id is string => id !== null);
    const tagIds = await deps.store.tagIdsOf(space, valid);
    const refs = await deps.store.refs(space, [...new Set(tagIds.flat())]);
    const byMemory = new Map(valid.map((id, i) => [id, tagIds[i]!]));
    const items = ids.map((id) =>
      sortRefs(
        (id ? (byMemory.get(id) ?? []) : []).flatMap((t): TagRef[] => {
          const r = refs.get(t);
          return r ? [r] : [];
        }),
      ),
    );
    return { items };
  };

  return { attach, detach, ofMemories };
}

export const linkBindings = (deps: LinksDeps) => {
  const h = linkHandlers(deps);
  return [bind(attachTags, h.attach), bind(detachTag, h.detach), bind(tagsOfMemories, h.ofMemories)];
};
