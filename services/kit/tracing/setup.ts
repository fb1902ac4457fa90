import { configOrExit } from "../config";
import type { Logger } from "../log";
import { tracingSettings } from "./settings";
import { installTracer, tracer } from "./tracer";

/**
 * Turns tracing on for this process when the environment asks for it (settings.ts): loads the SDK then, and
 * only then, and installs its tracer. `name` is the process's own (gateway, memories…): its spans' service name
 * is `memory-<name>` unless OTEL_SERVICE_NAME says otherwise. Resolves false when tracing stays off.
 */
export async function startTracing(name: string, log: Logger): Promise<boolean> {
  const settings = configOrExit(() => tracingSettings(`memory-${name}`));
  if (!settings) return false;
  const { sdkTracer } = await import("./sdk");
  const { version } = (await Bun.file(new URL("../../../package.json", import.meta.url)).json()) as {
    version: string;
  };
  const { AsyncLocalStorage } = await import("node:async_hooks");
  installTracer(await sdkTracer(settings, version), new AsyncLocalStorage());
  log.info("tracing on", {
    service_name: settings.serviceName,
    protocol: settings.protocol,
    sampler: settings.sampler,
  });
  return true;
}

/** Exports the spans still buffered; part of every process's graceful stop. */
export const flushTracing = async (): Promise<void> => {
  await tracer()?.flush();
};
