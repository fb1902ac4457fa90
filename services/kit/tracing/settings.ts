import { ConfigError } from "../config";
import { SAMPLERS, type SamplerName } from "./sampler-names";

/**
 * Tracing's settings, from OpenTelemetry's standard variables: on only when an OTLP endpoint is set (and
 * OTEL_SDK_DISABLED is not `true`, OTEL_TRACES_EXPORTER not `none`). The endpoint, headers and timeout
 * variables are the exporter's own (it reads them itself); what the SDK leaves to its user is read here, once,
 * and a bad value stops the process with one line (ConfigError), like every other setting.
 */
export interface TracingSettings {
  serviceName: string;
  protocol: "http/protobuf" | "http/json";
  sampler: SamplerName;
  ratio: number;
  batch: {
    scheduledDelayMillis: number;
    maxQueueSize: number;
    maxExportBatchSize: number;
    exportTimeoutMillis: number;
  };
}

type Env = Record<string, string | undefined>;

export function tracingSettings(defaultServiceName: string, env: Env = process.env): TracingSettings | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return null;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return null;
  if (!env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT && !env.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || "http/protobuf";
  if (protocol !== "http/protobuf" && protocol !== "http/json")
    throw new ConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: use http/protobuf or http/json`);
  const sampler = (env.OTEL_TRACES_SAMPLER || "parentbased_always_on") as SamplerName;
  if (!SAMPLERS.includes(sampler))
    throw new ConfigError(`OTEL_TRACES_SAMPLER=${sampler} is not supported: use one of ${SAMPLERS.join(", ")}`);
  const ratio = numberOf(env, "OTEL_TRACES_SAMPLER_ARG", 1);
  if (ratio > 1) throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG=${ratio} is not a ratio between 0 and 1`);
  return {
    serviceName: env.OTEL_SERVICE_NAME || defaultServiceName,
    protocol,
    sampler,
    ratio,
    batch: {
      scheduledDelayMillis: numberOf(env, "OTEL_BSP_SCHEDULE_DELAY", 5000),
      maxQueueSize: numberOf(env, "OTEL_BSP_MAX_QUEUE_SIZE", 2048),
      maxExportBatchSize: numberOf(env, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512),
      exportTimeoutMillis: numberOf(env, "OTEL_BSP_EXPORT_TIMEOUT", 30_000),
    },
  };
}

function numberOf(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new ConfigError(`${name}=${raw} is not a non-negative number`);
  return n;
}
