import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { connect } from "nats";
import { freePort } from "../stack/infra.ts";
import { ensureNats, fetchNats, NATS_MINOR } from "./nats.mjs";
import { withEnv } from "./env.fixture";

const ROOT = resolve(import.meta.dir, "../..");
const cacheDir = mkdtempSync(join(tmpdir(), "nats-fetch-cache-"));
let server: ReturnType<typeof Bun.spawn> | undefined;
afterAll(async () => {
  server?.kill("SIGKILL");
  await server?.exited;
  rmSync(cacheDir, { recursive: true, force: true });
});

test("the production images run the minor the local stack fetches", () => {
  const image = `image: nats:${NATS_MINOR}-alpine`;
  expect(readFileSync(join(ROOT, "docker-compose.yml"), "utf8")).toContain(image);
  expect(readFileSync(join(ROOT, "k8s/overlays/dev/nats.yaml"), "utf8")).toContain(image);
});

test("no cache: fetchNats unpacks Debian's nats-server of the production minor, and it serves JetStream", async () => {
  const fetched = fetchNats({ cacheDir });
  expect(fetched.version.startsWith(`${NATS_MINOR}.`)).toBe(true);
  const port = await freePort();
  const store = join(cacheDir, "js");
  server = Bun.spawn([fetched.bin, "-a", "127.0.0.1", "-p", String(port), "-js", "-sd", store], {
    stdio: ["ignore", "ignore", "ignore"],
  });
  let nc;
  for (let i = 0; i < 50 && !nc; i++) {
    nc = await connect({ servers: `127.0.0.1:${port}`, reconnect: false }).catch(() => undefined);
    if (!nc) await Bun.sleep(100);
  }
  expect(nc?.info?.version).toBe(fetched.version);
  const jsm = await nc!.jetstreamManager();
  expect((await jsm.getAccountInfo()).streams).toBe(0);
  await nc!.close();
}, 120_000);

test("a nats-server older than 2.10 is passed over with one line; the cached one of the production minor runs", () => {
  const old = join(cacheDir, "old-nats-server");
  writeFileSync(old, "#!/bin/sh\necho 'nats-server: v2.9.10'\n");
  chmodSync(old, 0o755);
  const { result: chosen, lines } = withEnv({ NATS_URL: undefined, NATS_SERVER_BIN: old }, () =>
    ensureNats({ cacheDir }),
  );
  expect(chosen!.version.startsWith(`${NATS_MINOR}.`)).toBe(true);
  expect(chosen!.origin).toStartWith("cached in ");
  expect(lines[0]).toBe(
    `bootstrap: ignoring ${old}: nats-server 2.9.10 is older than 2.10, the production minor; ` +
      "using a private nats-server 2.10 instead",
  );
});
