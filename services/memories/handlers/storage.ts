import { getLargestSpaces, getStorageUsage } from "../../contract/usage";
import { bind, type Handler } from "../../kit/handler";
import { spaceOf } from "../../kit/space";
import { quotaOverrideOf } from "../../tenant-settings/settings";
import type { StorageStore } from "../storage";
import type { QuotaSettings } from "../storage";
import { storageLimitsOf } from "./memories";

export interface StorageDeps {
  storage: StorageStore;
  quotas?: QuotaSettings;
}

/** What the caller's space stores against its quotas, and the largest spaces (internal operations). */
export function storageHandlers(deps: StorageDeps) {
  const usage: Handler<typeof getStorageUsage> = async (_input, ctx) => {
    const { count, settings } = await deps.storage.usage(spaceOf(ctx));
    const plan = storageLimitsOf(ctx, deps);
    // The limit a write meets (lua/quota.lua): the override, else the plan's; 0 = none, reported as null.
    const limit = (quota: "memories" | "bytes") => quotaOverrideOf(settings, quota) ?? plan[quota];
    const reported = (n: number) => (n === 0 ? null : n);
    return { ...count, limits: { memories: reported(limit("memories")), bytes: reported(limit("bytes")) } };
  };

  const largest: Handler<typeof getLargestSpaces> = async (input) => ({
    spaces: (await deps.storage.largest(input.limit)).map((s) => ({
      tenant: s.space.tenant,
      environment: s.space.env,
      memories: s.memories,
      bytes: s.bytes,
    })),
  });

  return { usage, largest };
}

export const storageBindings = (deps: StorageDeps) => {
  const h = storageHandlers(deps);
  return [bind(getStorageUsage, h.usage), bind(getLargestSpaces, h.largest)];
};
