import { getTenant, knownOrigin, registerOrigins, tenantOrigins, updateTenant } from "../contract/tenant";
import { bind, type Handler } from "../kit/handler";
import { spaceOf } from "../kit/space";
import { changesOf, originsOf, settingsOf } from "./settings";
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
    if (input.cors?.allowed_origins) await deps.store.registerOrigins(input.cors.allowed_origins, null);
    return settingsOf(space, await deps.store.update(space, set, remove));
  };

  const origins: Handler<typeof tenantOrigins> = async (_input, ctx) => ({
    origins: originsOf(await deps.store.get(spaceOf(ctx))),
  });

  const register: Handler<typeof registerOrigins> = async (input) => {
    await deps.store.registerOrigins(input.origins, input.until_ms);
    return {};
  };

  const known: Handler<typeof knownOrigin> = async (input) => ({ known: await deps.store.knownOrigin(input.origin) });

  return { get, update, origins, register, known };
}

export const tenantBindings = (deps: { store: TenantSettingsStore }) => {
  const h = tenantHandlers(deps);
  return [
    bind(getTenant, h.get),
    bind(updateTenant, h.update),
    bind(tenantOrigins, h.origins),
    bind(registerOrigins, h.register),
    bind(knownOrigin, h.known),
  ];
};
