import { ERASE_STEP_OPS } from "../../contract/erase";
import { bind } from "../../kit/handler";
import type { KeyRecord } from "../record";
import type { KeyStore } from "../store";

/** Keys erased at most per call: each is a few commands, and a revocation notice to every gateway. */
const KEYS_PER_STEP = 500;

/**
 * `keys.erase`: the API keys of a tenant environment and their usage counters (the root key stays). Each gateway
 * is told, as for a revocation, so none goes on accepting an erased key from its cache.
 */
export const eraseBinding = (deps: {
  store: KeyStore;
  announceRevoked: (key: Pick<KeyRecord, "id" | "hash">) => void;
}) =>
  bind(ERASE_STEP_OPS.keys, async (input) => {
    const { erased, done } = await deps.store.eraseEnvironment(input.tenant_id, input.environment, KEYS_PER_STEP);
    for (const rec of erased) deps.announceRevoked(rec);
    return { deleted: erased.length, done };
  });
