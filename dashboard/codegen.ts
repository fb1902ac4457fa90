import type { CodegenConfig } from "@graphql-codegen/cli";

/**
 * Typed GraphQL documents for the dashboard, from the gateway's SDL files (no server needed):
 * `npm run dashboard:codegen` after changing a schema file or a `graphql(…)` document in dashboard/src.
 */
const config: CodegenConfig = {
  schema: "gateway/graphql/schema/*.graphql",
  documents: ["dashboard/src/**/*.{ts,tsx}", "!dashboard/src/generated/**"],
  ignoreNoDocuments: true,
  generates: {
    "dashboard/src/generated/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { DateTime: "string", JSON: "unknown" },
      },
    },
  },
};

export default config;
