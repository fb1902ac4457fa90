import { expect, test } from "bun:test";
import { connect } from "nats";
import type { NatsProcess } from "../../scripts/stack/infra";
import { STREAMS } from "../../services/contract/streams";
import { exitedProcesses, fileStack, waitFor } from "./fault-stack";
import { closedLoop } from "./fault-load";
import { Recorder, tenantClient } from "./fault-recorder";
import { figure, fmtSummary, summarize } from "./fault-figures";

/**
 * Cluster fault 3: kill -9 of the NATS node that leads the EVENTS stream (3 replicas) while clients create
 * memories. The stack is ready again within 5 s, requests meanwhile answer 200 or 503, and no event is
 * lost: every acknowledged memory becomes findable by search, which learns of it only through EVENTS.
 */
const fault = fileStack("cluster-nats", { cluster: true });

const letters = "abcdefghijklmnopqrstuvwxyz";
const uniqueWord = () => "zq" + Array.from({ length: 10 }, () => letters[Math.floor(Math.random() * 26)]).join("");

/** The node that leads a stream now, found by asking the stream and each node its name. */
async function streamLeader(nodes: NatsProcess[], stream: string): Promise<NatsProcess> {
  const nc = await connect({ servers: nodes.map((n) => n.url), timeout: 2000 });
  try {
    const leader = (await (await nc.jetstreamManager()).streams.info(stream)).cluster?.leader;
    for (const node of nodes) {
      const one = await connect({ servers: node.url, timeout: 2000 });
      const name = one.info?.server_name;
      await one.close();
      if (name === leader) return node;
    }
    throw new Error(`no node is named ${leader}`);
  } finally {
    await nc.close();
  }
}

test("kill -9 of the NATS node leading EVENTS under load: ready within 5 s, 0 events lost " +
  "(the search index converges)", async () => {
  const stack = fault.stack;
  const rec = new Recorder();
  const client = await tenantClient(stack, rec);
  const created = new Map<string, string>(); // acknowledged: id → its unique word
  let done = false;
  const load = closedLoop({
    concurrency: 8,
    maxMs: 60_000,
    until: () => done,
    task: async () => {
      const word = uniqueWord();
      const r = await client.call("create", "POST", "/v1/memories", { content: `nats fault memory ${word}` });
      if (r.status === 200) created.set(r.body.data.id, word);
      else await Bun.sleep(50);
    },
  });
  await waitFor(() => created.size >= 100, 20_000);
  const leader = await streamLeader(stack.clusters!.nats.nodes, STREAMS.EVENTS.name);
  const killedAt = rec.now();
  const createdBeforeKill = created.size;
  await leader.kill9();
  const readyMs = await waitFor(async () => {
    const ready = (await fetch(`${stack.baseUrl}/readyz`)).status === 200;
    const r = ready && (await client.call("probe", "POST", "/v1/memories", { content: "probe after the kill" }));
    return r !== false && r.status === 200;
  }, 20_000);
  await Bun.sleep(3000);
  done = true;
  await load;

  const after = rec.samples.filter((s) => s.op === "create" && s.end >= killedAt);
  const unfindable = async () => {
    const missing: string[] = [];
    const ids = [...created.keys()];
    for (let i = 0; i < ids.length; i += 8) {
      await Promise.all(
        ids.slice(i, i + 8).map(async (id) => {
          const r = await client.call("verify", "POST", "/v1/search", { query: created.get(id), limit: 3 });
          if (r.status !== 200 || !(r.body.data.results as { id: string }[]).some((x) => x.id === id)) missing.push(id);
        }),
      );
    }
    return missing;
  };
  let missing = await unfindable();
  const convergedMs = await waitFor(async () => (missing = await unfindable()).length === 0, 30_000, 500);
  figure(
    "cluster-nats",
    `killed the EVENTS leader after ${createdBeforeKill} creates; ready again in ${readyMs?.toFixed(0)} ms`,
  );
  figure("cluster-nats", `creates after the kill: ${fmtSummary(summarize(after))}`);
  figure(
    "cluster-nats",
    `acknowledged memories not findable by search: ${missing.length} of ${created.size} ` +
      `(index converged ${convergedMs?.toFixed(0)} ms after the load ended)`,
  );
  expect(readyMs).not.toBeNull();
  expect(readyMs!).toBeLessThanOrEqual(5000);
  expect(after.filter((s) => s.status !== 200 && s.status !== 503)).toEqual([]);
  expect(missing).toEqual([]);
  expect(exitedProcesses(stack)).toEqual([]);
}, 150_000);
