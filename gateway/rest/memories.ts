import { createMemory, deleteMemory, getMemory, listMemories, updateMemory } from "../../services/contract/memories";
import { route } from "./route";

const ids = { id: "Memory not found" };

export const memoryRoutes = [
  route({ method: "POST", path: "/memories", op: createMemory, tag: "memories" }),
  route({ method: "GET", path: "/memories", op: listMemories, list: true, tag: "memories" }),
  route({ method: "GET", path: "/memories/:id", op: getMemory, ids, tag: "memories" }),
  route({ method: "PATCH", path: "/memories/:id", op: updateMemory, ids, tag: "memories" }),
  route({ method: "DELETE", path: "/memories/:id", op: deleteMemory, ids, tag: "memories" }),
];
