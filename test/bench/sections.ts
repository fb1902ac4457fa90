import type { Stack } from "../../scripts/stack/launch";
import type { LoadResult } from "./load";
import { fmt, medianOf } from "./load";
import { memoriesSection } from "./memories";
import { graphqlSection } from "./graphql";
import { searchSection } from "./search";
import { contextSection } from "./context";
import { mcpSection } from "./mcp";
import { webhooksSection } from "./webhooks";
import { tokensSection } from "./tokens";
import { clusterSection } from "./cluster";
import { ingestSection } from "./ingest";
import { portabilitySection } from "./portability";

export interface BenchContext {
  stack: Stack;
  tenant: { tenant: string; key: string; keyId: string };
  baseline: LoadResult;
  runs: number;
  durationS: number;
  connections: number;
}

export interface BenchSection {
  name: string;
  run(ctx: BenchContext): Promise<void>;
}

export const ratio = (r: LoadResult, base: LoadResult) => (r.rps / base.rps).toFixed(3);

/** An authenticated, rate-limited read through NATS and Redis vs the bare baseline. */
const gatewaySection: BenchSection = {
  name: "gateway",
  async run(ctx) {
    const headers = { Authorization: `Bearer ${ctx.tenant.key}` };
    const r = await medianOf(ctx.runs, {
      url: `${ctx.stack.baseUrl}/v1/keys?limit=10`,
      headers,
      connections: ctx.connections,
      durationS: ctx.durationS,
    });
    console.log(`(b) GET /v1/keys (auth+limit+NATS)  ${fmt(r)}   b/a ${ratio(r, ctx.baseline)}`);
  },
};

/** Every section of the benchmark, in the order they run. */
export const benchSections: BenchSection[] = [
  gatewaySection,
  memoriesSection,
  ingestSection,
  graphqlSection,
  searchSection,
  contextSection,
  mcpSection,
  webhooksSection,
  tokensSection,
  clusterSection,
  portabilitySection,
];
