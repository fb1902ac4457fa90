import type { EraseStepInput, ERASE_STEP_OPS } from "../contract/erase";
import { bind, type Binding } from "./handler";
import type { Space } from "./space";

/** Keys one erase step deletes at most, so each call answers well within its timeout. */
export const ERASE_BUDGET = 20_000;

export type Erase = (space: Space, budget: number) => Promise<{ deleted: number; done: boolean }>;

/** A service's `<service>.erase` operation over its store's erase (contract/erase.ts). */
export const eraseStepBinding = (op: (typeof ERASE_STEP_OPS)[keyof typeof ERASE_STEP_OPS], erase: Erase): Binding =>
  bind(op, (input: EraseStepInput) => erase({ tenant: input.tenant_id, env: input.environment }, ERASE_BUDGET));
