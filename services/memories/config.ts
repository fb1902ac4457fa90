import { Type as T } from "@sinclair/typebox";
import { loadServiceConfig } from "../kit/config";
import { QuotaConfig } from "./storage";

/** The memories service's settings (besides services/kit/config.ts' BaseConfig). */
export const MemoriesConfig = {
  /** Pause between two ticks of the expiry sweeper (expiry/sweeper.ts). */
  EXPIRY_SWEEP_INTERVAL_MS: T.Integer({ minimum: 50, maximum: 60_000, default: 1000 }),
  ...QuotaConfig,
};

export const loadMemoriesConfig = () => loadServiceConfig(MemoriesConfig);
