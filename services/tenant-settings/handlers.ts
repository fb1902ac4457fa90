import { getTenant, updateTenant } from "../contract/tenant";
import { bind, type Handler } from "../kit/handler";
import { spaceOf } from "../kit/space";
import { changesOf, settingsOf } from "./settings";
import type { TenantSettingsStore } from "./store";

/** `tenant.get` / `tenant.update`, for the caller's own tenant and environment only. */
export function tenantHandlers(deps: { store: TenantSettingsStore }) {
  const get: Handler<typeof getTenant> = async (_input, ctx) => {
    const space = spaceOf(ctx);
    return settingsOf(space, await deps.store.get(space));
  };

  const update: Handler<typeof updateTenant> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const { set, remove } = changesOf(input);
    // Nothing sent changes nothing, like an empty memory patch.
    if (Object.keys(set).length === 0 && remove.length === 0) return get({}, ctx);
    return settingsOf(space, await deps.store.update(space, set, remove));
  };

  return { get, update };
}

export const tenantBindings = (deps: { store: TenantSettingsStore }) => {
  const h = tenantHandlers(deps);
  return [bind(getTenant, h.get), bind(updateTenant, h.update)];
};
