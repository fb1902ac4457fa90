import { runService } from "../kit/runtime";
import { ensureStream } from "../kit/streams";
import { STREAMS } from "../contract/streams";
import { createChangePublisher } from "../memory-data/publisher";
import { tenantBindings } from "../tenant-settings/handlers";
import { createTenantSettingsStore } from "../tenant-settings/store";
import { loadMemoriesConfig } from "./config";
import { createMemoryStore } from "./store";
import { createPortabilityStore } from "./portability";
import { createStorageStore } from "./storage";
import { startSweeper } from "./expiry";
import { memoryBindings } from "./handlers/memories";
import { threadBindings } from "./handlers/threads";
import { entityBindings } from "./handlers/entities";
import { portabilityBindings } from "./handlers/portability";
import { eraseBindings } from "./handlers/erase";
import { storageBindings } from "./handlers/storage";

const config = loadMemoriesConfig();

await runService(
  { name: "memories", version: "1.0.0", description: "Memories, their hierarchy and entities; tenant settings" },
  config,
  async ({ nc, redis, bus, log }) => {
    await ensureStream(nc, STREAMS.EVENTS, config.JETSTREAM_REPLICAS);
    const deps = {
      store: createMemoryStore(redis),
      changes: createChangePublisher(nc.jetstream(), bus),
      quotas: config,
    };
    const port = createPortabilityStore(redis);
    const settings = createTenantSettingsStore(redis);
    const sweeper = startSweeper({ ...deps, log }, { intervalMs: config.EXPIRY_SWEEP_INTERVAL_MS });
    return {
      bindings: [
        ...memoryBindings(deps),
        ...threadBindings(deps),
        ...entityBindings(deps),
        ...portabilityBindings({ ...deps, port }),
        ...tenantBindings({ store: settings }),
        ...storageBindings({ storage: createStorageStore(redis), quotas: config }),
        ...eraseBindings({ port, settings, bus }),
      ],
      onStop: () => sweeper.stop(),
    };
  },
);
