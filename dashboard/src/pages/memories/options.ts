import type { ContentType, Tier } from "../../generated/graphql";

export const TIERS: Tier[] = ["SHORT", "MEDIUM", "LONG"];
export const CONTENT_TYPES: ContentType[] = ["TEXT", "CONVERSATION", "DOCUMENT", "EVENT", "FACT"];

/** An enum value as people read it: `CONVERSATION` → `conversation`. */
export const lower = (value: string) => value.toLowerCase().replace(/_/g, " ");
