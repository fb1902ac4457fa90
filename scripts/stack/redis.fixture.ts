import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Redis from "ioredis";
import { startRedis, type RedisProcess } from "./infra";

/**
 * A private, real Redis 8 for one test file: started on the first `connect()`, stopped (clients
 * closed, data removed) after the file's tests. Call it at the top level of the test file.
 */
export function privateRedis(name: string) {
  let server: Promise<RedisProcess> | null = null;
  let dataDir: string | null = null;
  const clients: Redis[] = [];
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await (await server)?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    /** A client of the file's Redis (one command retry, so a test fails fast rather than hanging). */
    async connect(): Promise<Redis> {
      server ??= startRedis({ dataDir: (dataDir = mkdtempSync(join(tmpdir(), `${name}-`))) });
      const client = new Redis((await server).url, { maxRetriesPerRequest: 1 });
      clients.push(client);
      return client;
    },
  };
}
