import { afterAll, beforeAll } from "bun:test";
import { mkdirSync, mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack, type Stack, type StackOptions } from "../../scripts/stack/launch";

/**
 * The stack of a fault test (test/faults/*.test.ts): each test file starts its OWN stack, because it
 * kills parts of it, and watches its replicas, its consumers and its processes.
 */

/** A private stack under .data-test/faults-<name>-XXXX (logs stay there for post-mortems). */
async function faultStack(name: string, opts: Omit<StackOptions, "dataDir"> = {}): Promise<Stack> {
  const root = resolve(process.env.TEST_DATA_ROOT ?? ".data-test");
  mkdirSync(root, { recursive: true });
  const dataDir = mkdtempSync(join(root, `faults-${name}-`));
  return startStack({ ...opts, dataDir, env: { LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "10000000", ...opts.env } });
}

/**
 * The stack of one fault test file (call at its top level): started before its tests, stopped after
 * them. Tests read `.stack`. `when: false` starts nothing (a topology without the part under test).
 */
export function fileStack(
  name: string,
  opts: Omit<StackOptions, "dataDir"> & { when?: boolean } = {},
): { readonly stack: Stack } {
  const { when = true, ...stackOpts } = opts;
  const holder = {} as { stack: Stack };
  beforeAll(async () => {
    if (when) holder.stack = await faultStack(name, stackOpts);
  }, 120_000);
  afterAll(async () => {
    await holder.stack?.stop();
  }, 60_000);
  return holder;
}

/** Polls `check` every `everyMs` until it returns true or `maxMs` passes; resolves the elapsed ms or null. */
export async function waitFor(
  check: () => Promise<boolean> | boolean,
  maxMs: number,
  everyMs = 50,
): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < maxMs) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return performance.now() - started;
    await Bun.sleep(everyMs);
  }
  return null;
}

/** How many replicas of a service answer `$SRV.PING.<name>` right now (distinct instance ids). */
export async function replicasAnswering(natsUrl: string, name: string, waitMs = 300): Promise<number> {
  const { connect } = await import("nats");
  const nc = await connect({ servers: natsUrl, reconnect: false, timeout: 1000 });
  try {
    const ids = new Set<string>();
    const replies = await nc.requestMany(`$SRV.PING.${name}`, undefined, { maxWait: waitMs });
    for await (const m of replies) ids.add((m.json() as { id: string }).id);
    return ids.size;
  } finally {
    await nc.close();
  }
}

/** Waits until `count` replicas of each service answer PING (bounded by `maxMs`). */
export async function waitReplicas(
  natsUrl: string,
  names: readonly string[],
  count: number,
  maxMs = 20_000,
): Promise<void> {
  for (const name of names) {
    const ok = await waitFor(async () => (await replicasAnswering(natsUrl, name)) >= count, maxMs, 100);
    if (ok === null) throw new Error(`${name}: fewer than ${count} replicas answer PING after ${maxMs} ms`);
  }
}

/** Durable JetStream consumers of every stream, with what they still have to process. */
export async function consumersBacklog(natsUrl: string) {
  const { connect } = await import("nats");
  const { STREAMS } = await import("../../services/contract/streams");
  const nc = await connect({ servers: natsUrl, reconnect: false, timeout: 2000 });
  try {
    const jsm = await nc.jetstreamManager({ timeout: 2000 });
    const out: { name: string; pending: number; ackPending: number }[] = [];
    for (const s of Object.values(STREAMS)) {
      for await (const c of jsm.consumers.list(s.name)) {
        if (c.config.durable_name)
          out.push({ name: `${s.name}/${c.name}`, pending: c.num_pending, ackPending: c.num_ack_pending });
      }
    }
    return out;
  } finally {
    await nc.close();
  }
}

/** Names of the stack's processes that have exited (none should, whatever Redis or NATS do). */
export const exitedProcesses = (stack: Stack) =>
  [stack.gateway, ...Object.values(stack.services).flat()]
    .filter((c) => c.proc.exitCode !== null || c.proc.signalCode !== null)
    .map((c) => c.name);
