import { attachTags, createTag, deleteTag, detachTag, getTag, listTags, updateTag } from "../../services/contract/tags";
import { coerceQuery } from "../../services/contract/validation";
import { route } from "./route";

const TAG = { id: "Tag not found" };
const MEMORY = { id: "Memory not found" };

/** Spec 4.2. The link routes name the memory `:id` (like /memories/:id) and map it to `memory_id`. */
export const tagRoutes = [
  route({ method: "GET", path: "/tags", op: listTags, list: true, tag: "tags" }),
  route({ method: "POST", path: "/tags", op: createTag, tag: "tags" }),
  route({ method: "GET", path: "/tags/:id", op: getTag, ids: TAG, tag: "tags" }),
  route({ method: "PATCH", path: "/tags/:id", op: updateTag, ids: TAG, tag: "tags" }),
  route({ method: "DELETE", path: "/tags/:id", op: deleteTag, ids: TAG, tag: "tags" }),
  route({
    method: "POST",
    path: "/memories/:id/tags",
    op: attachTags,
    ids: MEMORY,
    input: (req) => ({ ...req.body, memory_id: req.params.id }),
    tag: "tags",
  }),
  route({
    method: "DELETE",
    path: "/memories/:id/tags/:tagId",
    op: detachTag,
    ids: { ...MEMORY, tagId: "Tag not found" },
    input: (req) => ({
      ...(coerceQuery(detachTag.input, req.query) as object),
      memory_id: req.params.id,
      tag_id: req.params.tagId,
    }),
    tag: "tags",
  }),
];
