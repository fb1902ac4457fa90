import { ERASE_STEP_OPS, ERASE_STEPS, eraseTenant, type EraseStep } from "../../contract/erase";
import { ServiceError, validationError } from "../../contract/errors";
import type { Caller } from "../../contract/op";
import type { Bus } from "../../kit/bus";
import { eraseStepBinding } from "../../kit/erase-step";
import { bind, requireCaller, type Handler } from "../../kit/handler";
import type { Space } from "../../kit/space";
import type { TenantSettingsStore } from "../../tenant-settings/store";
import type { PortabilityStore } from "../portability";

export interface EraseDeps {
  port: PortabilityStore;
  settings: TenantSettingsStore;
  bus: Bus;
  /** Pause before looking again for keys written while the erase ran. */
  settleMs?: number;
}

/** Rounds of looking again for keys that writes in flight left behind a step (see `erase`). */
const SETTLE_ROUNDS = 3;
const STEP_TIMEOUT_MS = 120_000;

/**
 * Whose data a call erases: the root key names any tenant environment (its own by default); any other admin key
 * erases only its own, and only with `confirm` typed out as `<tenant>:<environment>`.
 */
function targetOf(caller: Caller, input: { confirm?: string; tenant_id?: string; environment?: Space["env"] }): Space {
  const space = { tenant: input.tenant_id ?? caller.tenant, env: input.environment ?? caller.env };
  if (caller.root) return space;
  if (space.tenant !== caller.tenant || space.env !== caller.env)
    throw new ServiceError("FORBIDDEN", "Only the root key erases another tenant environment");
  const expected = `${space.tenant}:${space.env}`;
  if (input.confirm !== expected)
    throw validationError(
      "confirm",
      "confirm",
      `Erasing cannot be undone: send confirm "${expected}" to erase this tenant environment`,
      { expected },
    );
  return space;
}

export function eraseHandlers(deps: EraseDeps) {
  const settleMs = deps.settleMs ?? 250;

  /** `memories.erase`: memories, entities, their indexes, and the tenant's settings. */
  const memoriesStep = async (space: Space, budget: number) => {
    const step = await deps.port.erase(space, budget);
    if (step.done) step.deleted += await deps.settings.erase(space);
    return step;
  };

  /**
   * Steps in ERASE_STEPS order, each called until it is done, the step reached kept (portability/store.ts) so an
   * erase cut short goes on from there. A write in flight when its service's step ran (an index update, an event
   * the search indexer had not applied yet) can land after it: the space is scanned again, and while anything is
   * left under its hash tag the data steps run again, a few times, after a pause.
   */
  const erase: Handler<typeof eraseTenant> = async (input, ctx) => {
    const caller = requireCaller(ctx);
    const space = targetOf(caller, input);
    const from = await deps.port.eraseProgress(space);
    const deleted: Record<EraseStep, number> = { webhooks: 0, memories: 0, tags: 0, search: 0, keys: 0 };
    const stepInput = { tenant_id: space.tenant, environment: space.env };
    const run = async (step: EraseStep) => {
      for (;;) {
        const r = await deps.bus.call(ERASE_STEP_OPS[step], stepInput, ctx, { timeoutMs: STEP_TIMEOUT_MS });
        deleted[step] += r.deleted;
        if (r.done) return;
      }
    };
    const data = ERASE_STEPS.filter((s) => s !== "keys");
    for (let i = from ?? 0; i < ERASE_STEPS.length; i++) {
      await deps.port.setEraseProgress(space, i);
      if (ERASE_STEPS[i] === "keys") {
        for (let round = 0; round < SETTLE_ROUNDS; round++) {
          if ((await deps.port.keysOfSpace(space, 1)).length === 0) break;
          await Bun.sleep(settleMs);
          for (const step of data) await run(step);
        }
        // Keys no step deletes (a key family without its service's erase step) are a bug to see, not to hide.
        const left = await deps.port.keysOfSpace(space, 10);
        if (left.length > 0) ctx.log.error("erase left keys under the space's hash tag", { keys: left.join(" ") });
      }
      await run(ERASE_STEPS[i]!);
    }
    await deps.port.setEraseProgress(space, null);
    return { tenant_id: space.tenant, environment: space.env, erased: true as const, deleted, resumed: from !== null };
  };

  return { erase, memoriesStep };
}

export const eraseBindings = (deps: EraseDeps) => {
  const h = eraseHandlers(deps);
  return [bind(eraseTenant, h.erase), eraseStepBinding(ERASE_STEP_OPS.memories, h.memoriesStep)];
};
