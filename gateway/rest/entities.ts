import {
  createEntity,
  deleteEntity,
  getEntity,
  linkEntityMemories,
  listEntities,
  unlinkEntityMemory,
  updateEntity,
} from "../../services/contract/entities";
import { coerceQuery } from "../../services/contract/validation";
import { route } from "./route";

const ids = { id: "Entity not found" };

export const entityRoutes = [
  route({ method: "POST", path: "/entities", op: createEntity, tag: "entities" }),
  route({ method: "GET", path: "/entities", op: listEntities, list: true, tag: "entities" }),
  route({ method: "GET", path: "/entities/:id", op: getEntity, ids, tag: "entities" }),
  route({ method: "PATCH", path: "/entities/:id", op: updateEntity, ids, tag: "entities" }),
  route({ method: "DELETE", path: "/entities/:id", op: deleteEntity, ids, tag: "entities" }),
  route({ method: "POST", path: "/entities/:id/memories", op: linkEntityMemories, ids, tag: "entities" }),
  route({
    method: "DELETE",
    path: "/entities/:id/memories/:memoryId",
    op: unlinkEntityMemory,
    ids: { ...ids, memoryId: "Memory not found" },
    // The path names the memory `memoryId`; the operation calls it `memory_id`.
    input: (req) => ({
      ...(coerceQuery(unlinkEntityMemory.input, req.query) as object),
      id: req.params.id,
      memory_id: req.params.memoryId,
    }),
    tag: "entities",
  }),
];
