import {
  createEntity,
  deleteEntity,
  getEntity,
  linkEntityMemories,
  listEntities,
  unlinkEntityMemory,
  updateEntity,
} from "../../services/contract/entities";
import { route } from "./route";

const params = { id: { notFound: "Entity not found" } };

export const entityRoutes = [
  route({ operationId: "createEntity", method: "POST", path: "/entities", op: createEntity, tag: "entities" }),
  route({
    operationId: "listEntities",
    method: "GET",
    path: "/entities",
    op: listEntities,
    list: true,
    tag: "entities",
  }),
  route({ operationId: "getEntity", method: "GET", path: "/entities/:id", op: getEntity, params, tag: "entities" }),
  route({
    operationId: "updateEntity",
    method: "PATCH",
    path: "/entities/:id",
    op: updateEntity,
    params,
    tag: "entities",
  }),
  route({
    operationId: "deleteEntity",
    method: "DELETE",
    path: "/entities/:id",
    op: deleteEntity,
    params,
    tag: "entities",
  }),
  route({
    operationId: "linkEntityMemories",
    method: "POST",
    path: "/entities/:id/memories",
    op: linkEntityMemories,
    params,
    tag: "entities",
  }),
  route({
    operationId: "unlinkEntityMemory",
    method: "DELETE",
    path: "/entities/:id/memories/:memoryId",
    op: unlinkEntityMemory,
    // The path names the memory `memoryId`; the operation calls it `memory_id`.
    params: { ...params, memoryId: { notFound: "Memory not found", field: "memory_id" } },
    tag: "entities",
  }),
];
