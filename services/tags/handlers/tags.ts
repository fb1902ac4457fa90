import { createTag, deleteTag, getTag, getTags, listTags, updateTag, MAX_TAGS_PER_TENANT } from "../../contract/tags";
import { notFound } from "../../contract/errors";
import { isUuid } from "../../contract/validation";
import { bind, type Handler, type HandlerContext } from "../../kit/handler";
import { spaceOf } from "../../kit/space";
import type { TagRow, TagStore } from "../store";
import { foldName } from "../../memory-data/keyspace";
import { compareRows, toTag } from "../record";
import type { NotifyTagsChanged } from "../notify";
import { refuseCountSort, refuseTagChange, type CountsInside } from "../restriction";

export interface TagsDeps {
  store: TagStore;
  notify: NotifyTagsChanged;
  now?: () => number;
  maxTags?: number;
  /** A restricted caller's memory counts (restriction.ts); absent: the stored counts hold. */
  countsInside?: CountsInside;
}

export const tagNotFound = () => notFound("Tag");

export function tagHandlers(deps: TagsDeps) {
  const now = deps.now ?? Date.now;
  const maxTags = deps.maxTags ?? MAX_TAGS_PER_TENANT;

  /** Tags as the caller sees them: under a restriction, `memory_count` counts only the memories inside it. */
  const tagsOf = async (ctx: HandlerContext, rows: TagRow[]) => {
    const inside = await deps.countsInside?.(
      ctx,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toTag(r.id, r.hash, inside?.get(r.id) ?? r.count));
  };

  const create: Handler<typeof createTag> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const id = crypto.randomUUID();
    const at = now();
    const { color, description } = input;
    await deps.store.create(space, {
      id,
      name: input.name,
      lname: foldName(input.name),
      color,
      description,
      now: at,
      cap: maxTags,
    });
    return toTag(
      id,
      {
        name: input.name,
        ...(input.color ? { color: input.color } : {}),
        ...(input.description != null ? { description: input.description } : {}),
        created_at: String(at),
        updated_at: String(at),
      },
      0,
    );
  };

  const get: Handler<typeof getTag> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const [row] = isUuid(input.id) ? await deps.store.rows(space, [input.id]) : [null];
    if (!row) throw tagNotFound();
    return (await tagsOf(ctx, [row]))[0]!;
  };

  const getMany: Handler<typeof getTags> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const valid = input.ids.filter(isUuid);
    const rows = (await deps.store.rows(space, [...new Set(valid)])).flatMap((r) => (r ? [r] : []));
    const found = new Map((await tagsOf(ctx, rows)).map((t) => [t.id, t] as const));
    return { items: input.ids.map((id) => found.get(id) ?? null) };
  };

  const list: Handler<typeof listTags> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const limit = input.limit ?? 50;
    const offset = input.offset ?? 0;
    const sort = input.sort ?? "name";
    refuseCountSort(ctx, sort);
    const needle = input.search ? foldName(input.search) : "";
    const matching = (await deps.store.index(space)).filter((t) => t.lname.includes(needle));
    const counts =
      sort === "memory_count"
        ? await deps.store.counts(
            space,
            matching.map((t) => t.id),
          )
        : [];
    const rows = matching.map((t, i) => ({ ...t, count: counts[i] ?? 0 }));
    rows.sort(compareRows(sort, input.order ?? "asc"));
    const page = await deps.store.rows(
      space,
      rows.slice(offset, offset + limit).map((r) => r.id),
    );
    const items = await tagsOf(
      ctx,
      page.flatMap((r) => (r ? [r] : [])),
    );
    return { items, total: rows.length, limit, offset };
  };

  const update: Handler<typeof updateTag> = async (input, ctx) => {
    refuseTagChange(ctx);
    const space = spaceOf(ctx);
    if (!isUuid(input.id)) throw tagNotFound();
    const { id, name, ...rest } = input;
    const row = await deps.store.update(
      space,
      id,
      name === undefined ? rest : { name, lname: foldName(name), ...rest },
      now(),
    );
    return toTag(row.id, row.hash, row.count);
  };

  const remove: Handler<typeof deleteTag> = async (input, ctx) => {
    refuseTagChange(ctx);
    const space = spaceOf(ctx);
    if (!isUuid(input.id)) throw tagNotFound();
    const touched = await deps.store.remove(space, input.id);
    if (touched.length > 0) await deps.notify(ctx, touched);
    return { id: input.id, deleted: true as const };
  };

  return { create, get, getMany, list, update, remove };
}

export const tagBindings = (deps: TagsDeps) => {
  const h = tagHandlers(deps);
  return [
    bind(createTag, h.create),
    bind(getTag, h.get),
    bind(getTags, h.getMany),
    bind(listTags, h.list),
    bind(updateTag, h.update),
    bind(deleteTag, h.remove),
  ];
};
