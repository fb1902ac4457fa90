import { runService } from "../kit/runtime";
import { ensureStream } from "../kit/streams";
import { STREAMS } from "../contract/streams";
import { loadWebhooksConfig } from "./config";
import { parseDuration, parseSchedule } from "./schedule";
import { allowList } from "./url-policy";
import { createWebhookStore } from "./store";
import { createSender } from "./delivery/sender";
import { startDeliveryWorker } from "./delivery/worker";
import { startDispatcher } from "./delivery/dispatcher";
import { endpointBindings } from "./handlers/endpoints";
import { deliveryBindings } from "./handlers/deliveries";
import { eraseStepBinding } from "../kit/erase-step";
import { ERASE_STEP_OPS } from "../contract/erase";

const config = loadWebhooksConfig();

await runService(
  { name: "webhooks", version: "1.0.0", description: "Outbound webhooks: endpoints and signed deliveries" },
  config,
  async ({ config, nc, redis, log }) => {
    const store = createWebhookStore(redis);
    const allowed = allowList(config.WEBHOOK_ALLOWED_HOSTS);
    const worker = startDeliveryWorker({
      store,
      send: createSender({ allowed, timeoutMs: config.WEBHOOK_TIMEOUT_MS }),
      schedule: parseSchedule(config.WEBHOOK_RETRY_SCHEDULE),
      disableAfterMs: parseDuration(config.WEBHOOK_DISABLE_AFTER)!,
      concurrency: config.WEBHOOK_CONCURRENCY,
      leaseMs: config.WEBHOOK_TIMEOUT_MS + 5000,
      log,
    });
    await ensureStream(nc, STREAMS.EVENTS, config.JETSTREAM_REPLICAS);
    const stopDispatcher = await startDispatcher(nc, { store, log, enqueued: worker.wake });
    const deps = { store, allowed, wake: worker.wake };
    return {
      bindings: [
        ...endpointBindings(deps),
        ...deliveryBindings(deps),
        eraseStepBinding(ERASE_STEP_OPS.webhooks, store.erase),
      ],
      onStop: async () => {
        await stopDispatcher();
        await worker.stop();
      },
    };
  },
);
