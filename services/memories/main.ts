import { runService } from "../kit/runtime";
import { loadServiceConfig } from "../kit/config";
import { ensureStream } from "../kit/streams";
import { STREAMS } from "../contract/streams";
import { createMemoryStore } from "./store";
import { createChangePublisher } from "../memory-data/publisher";
import { memoryBindings } from "./handlers/memories";
import { entityBindings } from "./handlers/entities";

const config = loadServiceConfig({});

await runService(
  { name: "memories", version: "1.0.0", description: "Memories, their hierarchy and entities" },
  config,
  async ({ nc, redis, bus }) => {
    await ensureStream(nc, STREAMS.EVENTS, config.JETSTREAM_REPLICAS);
    const deps = { store: createMemoryStore(redis), changes: createChangePublisher(nc.jetstream(), bus) };
    return { bindings: [...memoryBindings(deps), ...entityBindings(deps)] };
  },
);
