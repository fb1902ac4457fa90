import { Type as T } from "@sinclair/typebox";
import { loadServiceConfig } from "../kit/config";
import { Enum } from "../contract/common";
import { PLANS } from "../contract/keys";

/** The keys service's settings (besides services/kit/config.ts' BaseConfig). */
export const KeysConfig = {
  BOOTSTRAP_ADMIN_KEY: T.Optional(T.String({ pattern: "^svc_live_[A-Za-z0-9_-]{32}$" })),
  DEFAULT_PLAN: Enum(PLANS, { default: "self_hosted" }),
  RATE_LIMIT_PER_MINUTE: T.Integer({ minimum: 1, default: 1000 }),
  RATE_LIMIT_PER_DAY: T.Integer({ minimum: 0, default: 0, description: "0 = unlimited" }),
  TOKEN_SECRET_ROTATION_HOURS: T.Integer({
    minimum: 24,
    maximum: 8760,
    default: 168,
    description: "How old the secret browser tokens are signed with gets before a new one replaces it",
  }),
};

export const loadKeysConfig = () => loadServiceConfig(KeysConfig);
