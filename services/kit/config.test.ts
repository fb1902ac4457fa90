import { describe, expect, test } from "bun:test";
import { Type as T } from "@sinclair/typebox";
import { BaseConfig, ConfigError, loadConfig } from "./config";

describe("config is read once, validated, and fails fast with a clear message", () => {
  const props = { ...BaseConfig, PORT: T.Integer({ minimum: 0, maximum: 65535, default: 3000 }) };

  test("defaults apply and numbers are converted", () => {
    const c = loadConfig(props, { PORT: "8080", LOG_LEVEL: "warn" });
    expect(c.PORT).toBe(8080);
    expect(c.LOG_LEVEL).toBe("warn");
    expect(c.NATS_REQUEST_TIMEOUT_MS).toBe(5000);
    expect(c.JETSTREAM_REPLICAS).toBe(1);
  });

  test("every bad variable is named in one error", () => {
    let error: unknown;
    try {
      loadConfig(props, { PORT: "eighty", LOG_LEVEL: "loud", REDIS_URL: "http://x" });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain("invalid configuration");
    expect(message).toContain("PORT");
    expect(message).toContain("LOG_LEVEL");
    expect(message).toContain("REDIS_URL");
  });

  test("a process with a bad setting exits 1 with the message, not a stack trace", () => {
    const out = Bun.spawnSync([process.execPath, "gateway/main.ts"], {
      env: { ...process.env, PORT: "99999" },
      cwd: `${import.meta.dir}/../..`,
    });
    expect(out.exitCode).toBe(1);
    const stderr = out.stderr.toString();
    expect(stderr).toContain("invalid configuration");
    expect(stderr).toContain("PORT");
    expect(stderr).not.toContain("    at ");
  });
});
