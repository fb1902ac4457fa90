import { CONTENT_TYPES, MEMORY_NATURES, MEMORY_SORTS, TIERS } from "../../services/contract/memories";
import { ENVIRONMENTS, ORDERS } from "../../services/contract/common";
import { TAG_SORTS } from "../../services/contract/tags";
import { ENTITY_TYPES } from "../../services/contract/entities";
import { SCOPES } from "../../services/contract/op";
import { PLANS } from "../../services/contract/keys";
import { DELETE_REASONS, MEMORY_EVENT_TYPES } from "../../services/contract/events";
import { CONTEXT_FORMATS, CONTEXT_ROLES, TAGS_MATCH } from "../../services/contract/search";
import { DELIVERY_STATUSES, SUBSCRIBABLE, WEBHOOK_DISABLED_REASONS } from "../../services/contract/webhooks";

/** `memories:read` → `MEMORIES_READ`, `*` → `ALL`: GraphQL's enum style for the contract's values. */
export const enumName = (value: string) => (value === "*" ? "ALL" : value.replace(/[^A-Za-z0-9]+/g, "_").toUpperCase());

/**
 * Every GraphQL enum and the contract list it stands for. GraphQL maps names to these values both
 * ways, so resolvers and services only ever see the contract's values ("text", "memories:read").
 */
export const ENUMS: Record<string, readonly string[]> = {
  ContentType: CONTENT_TYPES,
  Tier: TIERS,
  MemoryNature: MEMORY_NATURES,
  MemorySort: MEMORY_SORTS,
  SortOrder: ORDERS,
  TagSort: TAG_SORTS,
  EntityType: ENTITY_TYPES,
  Scope: SCOPES,
  Plan: PLANS,
  Environment: ENVIRONMENTS,
  MemoryEventType: MEMORY_EVENT_TYPES,
  DeleteReason: DELETE_REASONS,
  TagsMatch: TAGS_MATCH,
  ContextFormat: CONTEXT_FORMATS,
  ContextRole: CONTEXT_ROLES,
  WebhookEvent: SUBSCRIBABLE,
  WebhookDisabledReason: WEBHOOK_DISABLED_REASONS,
  DeliveryStatus: DELIVERY_STATUSES,
};

export const enumResolvers = () =>
  Object.fromEntries(
    Object.entries(ENUMS).map(([type, values]) => [type, Object.fromEntries(values.map((v) => [enumName(v), v]))]),
  );
