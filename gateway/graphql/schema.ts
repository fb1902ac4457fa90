import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GraphQLObjectType, type GraphQLSchema } from "graphql";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { DateTimeResolver, JSONResolver } from "graphql-scalars";
import type { PageOf } from "../../services/contract/common";
import { hasMore } from "../http/envelope/envelope";
import { snake } from "./args";
import { enumResolvers } from "./enums";
import type { EventHub } from "./events";
import { memoryResolvers } from "./resolvers/memories";
import { tagResolvers } from "./resolvers/tags";
import { entityResolvers } from "./resolvers/entities";
import { keyResolvers } from "./resolvers/keys";
import { eventResolvers } from "./resolvers/events";
import { searchResolvers } from "./resolvers/search";
import { webhookResolvers } from "./resolvers/webhooks";
import { tenantResolvers } from "./resolvers/tenant";
import { tokenResolvers } from "./resolvers/tokens";

const SCHEMA_DIR = join(import.meta.dir, "schema");

/** The SDL files, in a stable order (common.graphql declares the root types the others extend). */
export const typeDefs = () =>
  readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith(".graphql"))
    .sort((a, b) => (a === "common.graphql" ? -1 : b === "common.graphql" ? 1 : a.localeCompare(b)))
    .map((f) => readFileSync(join(SCHEMA_DIR, f), "utf8"));

const PAGES = ["MemoryPage", "TagPage", "EntityPage", "ApiKeyPage", "WebhookPage", "WebhookDeliveryPage"];

/**
 * Fields without a resolver read the contract's snake_case property (`contentType` → `content_type`),
 * so resolvers pass service answers through untouched. Set once here instead of per field by hand.
 */
function readSnakeCase(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(type instanceof GraphQLObjectType) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const key = snake(field.name);
      if (!field.resolve && key !== field.name) field.resolve = (source: Record<string, unknown>) => source[key];
    }
  }
  return schema;
}

export function buildSchema(hub: EventHub): GraphQLSchema {
  const pages = Object.fromEntries(PAGES.map((p) => [p, { hasMore: (page: PageOf<unknown>) => hasMore(page) }]));
  const resolvers = [
    { DateTime: DateTimeResolver, JSON: JSONResolver },
    enumResolvers(),
    pages,
    memoryResolvers,
    tagResolvers,
    entityResolvers,
    keyResolvers,
    searchResolvers,
    webhookResolvers,
    tenantResolvers,
    tokenResolvers,
    eventResolvers(hub),
  ];
  return readSnakeCase(
    makeExecutableSchema({
      typeDefs: typeDefs(),
      resolvers,
      resolverValidationOptions: { requireResolversToMatchSchema: "error" },
    }),
  );
}
