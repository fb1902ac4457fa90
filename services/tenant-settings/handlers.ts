import {
  getTenant,
  knownOrigin,
  registerOrigins,
  tenantOrigins,
  updateTenant,
  type TenantTarget,
} from "../contract/tenant";
import { ServiceError } from "../contract/errors";
import { bind, requireCaller, type Handler, type HandlerContext } from "../kit/handler";
import { spaceOf, type Space } from "../kit/space";
import { changesOf, originsOf, settingsOf } from "./settings";
import type { TenantSettingsStore } from "./store";

const rootOnly = (field: string, message: string) => new ServiceError("FORBIDDEN", message, { field });

/**
 * The tenant and environment a call concerns: the caller's own, or, for the root key (the operator's,
 * which provisions tenants), the one it names.
 */
function targetOf(input: TenantTarget, ctx: HandlerContext): Space {
  const caller = requireCaller(ctx);
  if (input.tenant_id === undefined && input.environment === undefined)
    return { tenant: caller.tenant, env: caller.env };
  if (!caller.root) throw rootOnly("tenant_id", "Only the root key reads or changes another tenant's settings");
  return { tenant: input.tenant_id ?? caller.tenant, env: input.environment ?? caller.env };
}

/**
 * `tenant.get` / `tenant.update`, for the caller's own tenant and environment; the root key names any, and is
 * the only one that sets storage quotas (a tenant never raises its own). Plus the browser origins the gateway
 * asks about (CORS).
 */
export function tenantHandlers(deps: { store: TenantSettingsStore }) {
  const get: Handler<typeof getTenant> = async (input, ctx) => {
    const space = targetOf(input, ctx);
    return settingsOf(space, await deps.store.get(space));
  };

  const update: Handler<typeof updateTenant> = async (input, ctx) => {
    const space = targetOf(input, ctx);
    if (input.quota !== undefined && !requireCaller(ctx).root) throw rootOnly("quota", "Only the root key sets quotas");
    const { set, remove } = changesOf(input);
    // Nothing sent changes nothing, like an empty memory patch.
    if (Object.keys(set).length === 0 && remove.length === 0) return settingsOf(space, await deps.store.get(space));
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
