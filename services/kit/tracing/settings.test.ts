import { describe, expect, test } from "bun:test";
import { ConfigError } from "../config";
import { tracingSettings } from "./settings";

const ON = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };

describe("tracing settings", () => {
  test("off without an OTLP endpoint, or when disabled", () => {
    expect(tracingSettings("memory-gateway", {})).toBeNull();
    expect(tracingSettings("memory-gateway", { ...ON, OTEL_SDK_DISABLED: "true" })).toBeNull();
    expect(tracingSettings("memory-gateway", { ...ON, OTEL_TRACES_EXPORTER: "none" })).toBeNull();
  });

  test("on with either endpoint variable, with the standard defaults", () => {
    const s = tracingSettings("memory-gateway", ON)!;
    expect(s).toMatchObject({ serviceName: "memory-gateway", protocol: "http/protobuf" });
    expect(s.sampler).toBe("parentbased_always_on");
    expect(s.batch.scheduledDelayMillis).toBe(5000);
    const traces = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" };
    expect(tracingSettings("memory-search", traces)?.serviceName).toBe("memory-search");
  });

  test("honours the service name, protocol, sampler and batch variables", () => {
    const s = tracingSettings("memory-tags", {
      ...ON,
      OTEL_SERVICE_NAME: "tags-eu",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      OTEL_BSP_SCHEDULE_DELAY: "200",
    })!;
    expect(s).toMatchObject({ serviceName: "tags-eu", protocol: "http/json", ratio: 0.25 });
    expect(s.sampler).toBe("parentbased_traceidratio");
    expect(s.batch.scheduledDelayMillis).toBe(200);
    const traces = {
      ...ON,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
    };
    expect(tracingSettings("memory-tags", traces)?.protocol).toBe("http/protobuf");
  });

  test("refuses what it cannot honour, with the variable named", () => {
    for (const [name, value] of [
      ["OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"],
      ["OTEL_TRACES_SAMPLER", "jaeger_remote"],
      ["OTEL_TRACES_SAMPLER_ARG", "2"],
      ["OTEL_BSP_SCHEDULE_DELAY", "soon"],
    ] as const) {
      expect(() => tracingSettings("memory-keys", { ...ON, [name]: value })).toThrow(ConfigError);
      expect(() => tracingSettings("memory-keys", { ...ON, [name]: value })).toThrow(name);
    }
  });
});
