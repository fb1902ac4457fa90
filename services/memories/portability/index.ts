/** Export, import and erase of a space: their Redis calls and the export cursor's shape. */
export {
  createPortabilityStore,
  ERASE_PROGRESS,
  EXPORT_PAGE_BYTES,
  ExportPosition,
  type Linked,
  type PortabilityStore,
} from "./store";
