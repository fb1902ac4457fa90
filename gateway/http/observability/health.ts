import type { GatewayDeps } from "../../deps";

export interface Readiness {
  ready: boolean;
  checks: Record<string, "ok" | string>;
}

/**
 * Ready only when Redis, NATS and every service answer: each service's `$SRV.PING.<name>` must get
 * a reply from at least one replica within the timeout.
 */
export async function checkReadiness(
  deps: GatewayDeps,
  isStopping: () => boolean,
  timeoutMs = 1000,
): Promise<Readiness> {
  const checks: Record<string, string> = {};
  if (isStopping()) checks.gateway = "shutting down";
  const redis = deps.redis
    .ping()
    .then(() => "ok")
    .catch((e: Error) => `unreachable: ${e.message}`);
  // During a reconnect nc.info and isClosed() still look fine; the bus knows the link is down.
  const natsOk = deps.bus.connected() && !deps.nc.isDraining();
  checks.nats = natsOk ? "ok" : "unreachable";
  const services = deps.config.SERVICES.split(",").filter(Boolean);
  const pings = services.map((name) =>
    natsOk
      ? deps.nc
          .request(`$SRV.PING.${name}`, undefined, { timeout: timeoutMs })
          .then(() => "ok")
          .catch(() => "no replica answered")
      : Promise.resolve("nats unreachable"),
  );
  checks.redis = await redis;
  (await Promise.all(pings)).forEach((r, i) => (checks[`service:${services[i]}`] = r));
  return { ready: Object.values(checks).every((v) => v === "ok"), checks };
}
