import { runService } from "../kit/runtime";
import { ensureStream } from "../kit/streams";
import { STREAMS } from "../contract/streams";
import { loadSearchConfig } from "./config";
import { buildSearch, closeSearch } from "./wiring";
import { startIndexer } from "./indexer";
import { indexBindings } from "./handlers/index-memories";
import { searchBindings } from "./handlers/search";
import { contextBindings } from "./handlers/context";
import { eraseStepBinding } from "../kit/erase-step";
import { ERASE_STEP_OPS } from "../contract/erase";
import { startAutoMigration } from "../data-layout/auto";
import { createLayoutStore } from "../data-layout/store";
import { searchMigrations } from "./migrations";

const config = loadSearchConfig();

await runService(
  { name: "search", version: "1.0.0", description: "Embeddings, hybrid index, search and context" },
  config,
  async ({ config, nc, redis, bus, log }) => {
    const parts = await buildSearch({ config, redis, bus, log });
    await ensureStream(nc, STREAMS.EVENTS, config.JETSTREAM_REPLICAS);
    const stopIndexer = await startIndexer(nc, parts.apply, log);
    const migration = startAutoMigration({
      nc,
      store: createLayoutStore(redis),
      steps: searchMigrations(redis, parts.rebuilder),
      owner: "search",
      settings: config,
      view: parts.layout,
      log,
    });
    const deps = { retrieve: parts.retrieve, reader: parts.reader, rebuilder: parts.rebuilder };
    return {
      bindings: [
        ...indexBindings(parts.apply),
        ...searchBindings(deps),
        ...contextBindings(deps),
        eraseStepBinding(ERASE_STEP_OPS.search, parts.store.admin.erase),
      ],
      onStop: async () => {
        await migration.stop();
        await stopIndexer();
        await closeSearch(parts);
      },
    };
  },
);
