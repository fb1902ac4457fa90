import { ServiceError, validationError } from "../../contract/errors";
import { RESERVED_KEYS } from "../../contract/metadata";
import type { Plan } from "../../contract/keys";
import type { Restriction, Scope } from "../../contract/op";
import { signToken } from "../../contract/token-format";
import { createToken, rotateTokenSecret, TOKEN_TTL, tokenSecrets, UNGRANTABLE_TO_TOKENS } from "../../contract/tokens";
import { bind, requireCaller, type Handler } from "../../kit/handler";
import { refuseBeyondIssuer } from "../grant";
import type { PlanRateLimits } from "../limits";
import { newSigningSecret, rotated, verifyingSecrets, type SigningSecrets } from "../signing";
import type { KeyStore } from "../store";
import { loadIssuer } from "./issuer";

export interface TokensDeps {
  store: KeyStore;
  defaultPlan: Plan;
  selfHosted: PlanRateLimits;
  /** Tells every gateway replica to fetch the signing secrets again. */
  announceSecrets: () => void;
  /** Makes preflights from a token's origins succeed until it expires (tenant settings keep the list). */
  registerOrigins: (origins: string[], untilMs: number, requestId: string) => Promise<void>;
  now?: () => Date;
}

/** A token's scopes when none are asked: reading only, as far as the minting key may read. */
const READ_SCOPES: Scope[] = ["memories:read", "search:read"];
const MAX_TRIES = 10;

/** An empty restriction restricts nothing: null, so services need not tell the two apart. */
function restrictionOf(asked: Restriction | undefined): Restriction | null {
  if (!asked) return null;
  for (const key of Object.keys(asked.metadata ?? {})) {
    if (RESERVED_KEYS.has(key)) throw validationError(`restrict.metadata.${key}`, "reserved", "A reserved key name");
  }
  const out: Restriction = {};
  if (asked.metadata && Object.keys(asked.metadata).length > 0) out.metadata = asked.metadata;
  if (asked.root_memory_id) out.root_memory_id = asked.root_memory_id;
  if (asked.tag_ids) out.tag_ids = asked.tag_ids;
  return Object.keys(out).length > 0 ? out : null;
}

export function tokenHandlers(deps: TokensDeps) {
  const now = deps.now ?? (() => new Date());
  const secrets = () => deps.store.signingSecrets({ current: newSigningSecret(now()), previous: null });

  /**
   * Mints a token by the minting rule of keys (grant.ts): scopes within the key's, a rate limit within
   * its limit; `admin` and `tokens:create` never. It expires after `ttl_seconds`, or with the key if
   * that comes first, and names the key's current secret, so it dies when the key is revoked or rotated.
   */
  const create: Handler<typeof createToken> = async (input, ctx) => {
    const caller = requireCaller(ctx);
    const at = now();
    const { issuer, record } = await loadIssuer(deps.store, deps.defaultPlan, caller, at);
    if (!record) throw new ServiceError("UNAUTHORIZED", "Invalid API key");
    const held = (s: Scope) => issuer.scopes.includes("*") || issuer.scopes.includes(s);
    const scopes = input.scopes ?? (READ_SCOPES.some(held) ? READ_SCOPES.filter(held) : READ_SCOPES);
    const never = scopes.filter((s) => (UNGRANTABLE_TO_TOKENS as readonly string[]).includes(s));
    if (never.length > 0) {
      const allowed = scopes.filter((s) => !never.includes(s));
      const message = `A token can never hold ${never.join(", ")}`;
      throw new ServiceError("FORBIDDEN", message, { field: "scopes", refused: { scopes: never }, allowed });
    }
    refuseBeyondIssuer(issuer, { scopes, rate_limit: input.rate_limit }, issuer.plan, deps);
    const ttlMs = (input.ttl_seconds ?? TOKEN_TTL.default) * 1000;
    const keyEnd = issuer.expires_at ? Date.parse(issuer.expires_at) : Infinity;
    const exp = Math.floor(Math.min(at.getTime() + ttlMs, keyEnd) / 1000);
    const restrict = restrictionOf(input.restrict);
    if (input.origins?.length) await deps.registerOrigins(input.origins, exp * 1000, ctx.requestId);
    const { current } = await secrets();
    const token = signToken(
      {
        sid: current.id,
        jti: crypto.randomUUID(),
        tenant: caller.tenant,
        env: caller.env,
        kid: record.id,
        kh: record.hash,
        scopes,
        restrict,
        origins: input.origins ?? [],
        rate_limit: input.rate_limit ?? null,
        exp,
      },
      current.secret,
    );
    return { token, expires_at: new Date(exp * 1000).toISOString(), scopes, restrict };
  };

  const listSecrets: Handler<typeof tokenSecrets> = async () => ({ secrets: verifyingSecrets(await secrets()) });

  /** A new current secret; `olderThanMs` rotates only a secret at least that old (the periodic rotation). */
  const rotate = async (olderThanMs = 0): Promise<SigningSecrets> => {
    for (let tries = 1; ; tries++) {
      const before = await secrets();
      if (now().getTime() - Date.parse(before.current.created_at) < olderThanMs) return before;
      const after = rotated(before, now());
      if (await deps.store.replaceSigningSecrets(before, after)) {
        deps.announceSecrets();
        return after;
      }
      if (tries === MAX_TRIES) throw new ServiceError("SERVICE_UNAVAILABLE", "The signing secrets kept changing");
    }
  };

  const rotateSecret: Handler<typeof rotateTokenSecret> = async () => ({ id: (await rotate()).current.id });

  return { create, listSecrets, rotate, rotateSecret };
}

export const tokenBindings = (h: ReturnType<typeof tokenHandlers>) => [
  bind(createToken, h.create),
  bind(tokenSecrets, h.listSecrets),
  bind(rotateTokenSecret, h.rotateSecret),
];
