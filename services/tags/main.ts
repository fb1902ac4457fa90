import { runService } from "../kit/runtime";
import { loadTagsConfig } from "./config";
import { ensureStream } from "../kit/streams";
import { STREAMS } from "../contract/streams";
import { createTagStore } from "./store";
import { createChangePublisher } from "../memory-data/publisher";
import { createNotifier } from "./notify";
import { tagBindings } from "./handlers/tags";
import { linkBindings } from "./handlers/links";
import { importBindings } from "./handlers/import";
import { eraseStepBinding } from "../kit/erase-step";
import { ERASE_STEP_OPS } from "../contract/erase";
import { countsInside, linkRestriction } from "./restriction";

const config = loadTagsConfig();

await runService(
  { name: "tags", version: "1.0.0", description: "Tags and memory↔tag links" },
  config,
  async ({ nc, redis, bus }) => {
    await ensureStream(nc, STREAMS.EVENTS, config.JETSTREAM_REPLICAS);
    const store = createTagStore(redis);
    const notify = createNotifier({ store, changes: createChangePublisher(nc.jetstream(), bus) });
    return {
      bindings: [
        ...tagBindings({ store, notify, countsInside: countsInside(bus) }),
        ...linkBindings({ store, notify, mayLink: linkRestriction(bus) }),
        ...importBindings({ store, notify }),
        eraseStepBinding(ERASE_STEP_OPS.tags, store.erase),
      ],
    };
  },
);
