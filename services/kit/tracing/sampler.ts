import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace";

import type { SamplerName } from "./sampler-names";

/**
 * The sampler of OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG (a ratio in [0, 1], 1 by default); the SDK
 * version pinned here leaves reading them to its user. The default, `parentbased_always_on`, records a request
 * whose caller recorded it, or that starts its trace here.
 */
export function samplerOf(name: SamplerName, ratio: number): Sampler {
  const root = name.endsWith("always_on")
    ? new AlwaysOnSampler()
    : name.endsWith("always_off")
      ? new AlwaysOffSampler()
      : new TraceIdRatioBasedSampler(ratio);
  return name.startsWith("parentbased_") ? new ParentBasedSampler({ root }) : root;
}
