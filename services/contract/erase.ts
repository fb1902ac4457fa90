import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { Enum, ENVIRONMENTS } from "./common";

/**
 * Erasing a tenant environment (`DELETE /v1/tenant`): every record, index entry, vector, usage counter and API
 * key of it. The memories service drives it (it holds the tenant's settings): one `<service>.erase` call after
 * another, each service deleting its own keys through its own store, in bounded steps, until each says done.
 * Every step is idempotent, and where it got to is kept, so an interrupted erase is resumed by asking again.
 */

const TenantId = T.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9_.-]+$" });

export const eraseTenant = op({
  subject: "tenant.erase",
  erasesKeptAnswers: true,
  input: T.Object(
    {
      confirm: T.Optional(
        T.String({
          maxLength: 80,
          description: "`<tenant>:<environment>` of the caller's key, typed out: required but for the root key.",
        }),
      ),
      tenant_id: T.Optional(TenantId),
      environment: T.Optional(Enum(ENVIRONMENTS, { description: "With tenant_id: root key only." })),
    },
    { additionalProperties: false },
  ),
  output: T.Object({
    tenant_id: T.String(),
    environment: Enum(ENVIRONMENTS),
    erased: T.Literal(true),
    deleted: T.Object(
      {
        webhooks: T.Integer(),
        memories: T.Integer(),
        tags: T.Integer(),
        search: T.Integer(),
        keys: T.Integer(),
      },
      { description: "Redis keys (or API keys) each service deleted in this call; 0 for steps done before." },
    ),
    resumed: T.Boolean({ description: "An earlier erase of it was interrupted; this one went on from there." }),
  }),
  scope: "admin",
  summary: "Erase every record, index, vector, usage counter and key of a tenant environment (irreversible)",
});

/** The services an erase goes through, in order: deliveries stop first, keys go last (they let a resume in). */
export const ERASE_STEPS = ["webhooks", "memories", "tags", "search", "keys"] as const;
export type EraseStep = (typeof ERASE_STEPS)[number];

export const EraseStepInput = T.Object(
  { tenant_id: TenantId, environment: Enum(ENVIRONMENTS) },
  { additionalProperties: false },
);
export type EraseStepInput = Static<typeof EraseStepInput>;

const stepOp = (service: EraseStep) =>
  op({
    subject: `${service}.erase`,
    input: EraseStepInput,
    output: T.Object({
      deleted: T.Integer({ description: "What this call deleted." }),
      done: T.Boolean({ description: "false: call again, more is left." }),
    }),
    summary: `Internal (tenant.erase): one bounded step of erasing what the ${service} service holds of a space`,
  });

export const ERASE_STEP_OPS = {
  webhooks: stepOp("webhooks"),
  memories: stepOp("memories"),
  tags: stepOp("tags"),
  search: stepOp("search"),
  keys: stepOp("keys"),
} as const;
