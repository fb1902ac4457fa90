import {
  createMemories,
  createMemory,
  deleteMemory,
  getMemory,
  listMemories,
  updateMemory,
} from "../../services/contract/memories";
import { route } from "./route";

const params = { id: { notFound: "Memory not found" } };

export const memoryRoutes = [
  route({ operationId: "createMemory", method: "POST", path: "/memories", op: createMemory, tag: "memories" }),
  route({
    operationId: "createMemories",
    method: "POST",
    path: "/memories/batch",
    op: createMemories,
    tag: "memories",
  }),
  route({
    operationId: "listMemories",
    method: "GET",
    path: "/memories",
    op: listMemories,
    list: true,
    tag: "memories",
  }),
  route({ operationId: "getMemory", method: "GET", path: "/memories/:id", op: getMemory, params, tag: "memories" }),
  route({
    operationId: "updateMemory",
    method: "PATCH",
    path: "/memories/:id",
    op: updateMemory,
    params,
    tag: "memories",
  }),
  route({
    operationId: "deleteMemory",
    method: "DELETE",
    path: "/memories/:id",
    op: deleteMemory,
    params,
    tag: "memories",
  }),
];
