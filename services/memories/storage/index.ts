/** What a tenant environment stores, and the quotas it is held to. */
export { createStorageStore, type SpaceStorage, type StorageCount, type StorageStore } from "./store";
export {
  NO_LIMITS,
  NO_PLAN_QUOTAS,
  planStorageLimits,
  QuotaConfig,
  type QuotaSettings,
  type StorageLimits,
} from "./quota";
