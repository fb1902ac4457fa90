/**
 * The samplers OTEL_TRACES_SAMPLER may name (the OpenTelemetry specification's list, without Jaeger's remote
 * one). A leaf module: the settings check names without loading the SDK.
 */
export const SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;
export type SamplerName = (typeof SAMPLERS)[number];
