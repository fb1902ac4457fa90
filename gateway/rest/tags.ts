import { attachTags, createTag, deleteTag, detachTag, getTag, listTags, updateTag } from "../../services/contract/tags";
import { route } from "./route";

const TAG = { id: { notFound: "Tag not found" } };
const MEMORY = { notFound: "Memory not found", field: "memory_id" };

/** Spec 4.2. The link routes name the memory `:id` (like /memories/:id); it fills `memory_id`. */
export const tagRoutes = [
  route({ operationId: "listTags", method: "GET", path: "/tags", op: listTags, list: true, tag: "tags" }),
  route({ operationId: "createTag", method: "POST", path: "/tags", op: createTag, tag: "tags" }),
  route({ operationId: "getTag", method: "GET", path: "/tags/:id", op: getTag, params: TAG, tag: "tags" }),
  route({ operationId: "updateTag", method: "PATCH", path: "/tags/:id", op: updateTag, params: TAG, tag: "tags" }),
  route({ operationId: "deleteTag", method: "DELETE", path: "/tags/:id", op: deleteTag, params: TAG, tag: "tags" }),
  route({
    operationId: "attachTags",
    method: "POST",
    path: "/memories/:id/tags",
    op: attachTags,
    params: { id: MEMORY },
    tag: "tags",
  }),
  route({
    operationId: "detachTag",
    method: "DELETE",
    path: "/memories/:id/tags/:tagId",
    op: detachTag,
    params: { id: MEMORY, tagId: { notFound: "Tag not found", field: "tag_id" } },
    tag: "tags",
  }),
];
