import type { Scope } from "../../generated/graphql";

/** The scopes a key can hold, as the API names them and as people read them. */
export const SCOPES: { value: Scope; label: string }[] = [
  { value: "MEMORIES_READ", label: "memories:read" },
  { value: "MEMORIES_WRITE", label: "memories:write" },
  { value: "SEARCH_READ", label: "search:read" },
  { value: "ADMIN", label: "admin" },
  { value: "TOKENS_CREATE", label: "tokens:create" },
  { value: "ALL", label: "* (every scope)" },
];

export const scopeLabel = (s: Scope) => SCOPES.find((x) => x.value === s)?.label ?? s;

export interface KeyRow {
  revokedAt?: string | null;
  expiresAt?: string | null;
}

/** A key's status as the list shows it. */
export function statusOf(key: KeyRow): "revoked" | "expired" | "active" {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return "expired";
  return "active";
}
