import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync } from "node:fs";
import { join, resolve } from "node:path";
import { connect } from "nats";
import { DEFAULT_DATA_DIR, isRunning, readStackRecord } from "../../services/kit/local-stack";
import { OperatorError, operatorArgs, runOperatorCommand } from "../../services/kit/operator";
import { startNats } from "../stack/infra";
import { dropAfter, restoreStream, rewindConsumers } from "./jetstream-snapshot";
import { firstMismatch, readManifest } from "./manifest";
import { rdbToAofDir } from "./redis-snapshot";

/**
 * `npm run restore -- DIR`: puts a backup (`npm run backup`) into the DATA_DIR of a stopped stack, which then
 * starts with `npm start` as it was at the backup's point. Checksums are verified before anything is touched;
 * what DATA_DIR held is moved aside (DATA_DIR/replaced-<time>/), never deleted. JetStream's streams go back
 * through a NATS server started on DATA_DIR for the purpose; EVENTS loses the events published after the point,
 * and its consumers go back to the positions they had at the point (backup.ts says why).
 */
const usage =
  "usage: npm run restore -- BACKUP_DIR [--replace-streams]   (into DATA_DIR, default ./.data, of a stopped stack)";
const { positionals, values } = operatorArgs(
  { allowPositionals: true, options: { "replace-streams": { type: "boolean" } } },
  usage,
);
/**
 * NATS_URL set: the streams go into that (running) NATS, a cluster included, instead of DATA_DIR's files; Redis'
 * part is still prepared in DATA_DIR, for the operator to copy into Redis' volume (docs/operations.md).
 */
const remoteNats = process.env.NATS_URL || null;

await runOperatorCommand(async () => {
  const from = positionals[0] ? resolve(positionals[0]) : null;
  if (!from) throw new OperatorError(usage);
  const dataDir = process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : DEFAULT_DATA_DIR;
  const record = readStackRecord(dataDir);
  if (record && isRunning(record)) {
    throw new OperatorError(
      `The stack of DATA_DIR=${dataDir} is running (pid ${record.pid}): stop it (Ctrl-C) before restoring into it.`,
    );
  }
  let manifest: ReturnType<typeof readManifest>;
  try {
    manifest = readManifest(from);
  } catch (err) {
    throw new OperatorError((err as Error).message);
  }
  const mismatch = await firstMismatch(from, manifest);
  if (mismatch) throw new OperatorError(`Backup ${from} is damaged: ${mismatch}; nothing was changed.`);

  const started = Date.now();
  const aside = join(dataDir, `replaced-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  const moved: string[] = [];
  for (const path of ["redis/appendonlydir", "redis/dump.rdb", "nats/jetstream", "admin-key"]) {
    if (!existsSync(join(dataDir, path))) continue;
    mkdirSync(join(aside, path, ".."), { recursive: true });
    renameSync(join(dataDir, path), join(aside, path));
    moved.push(path);
  }
  mkdirSync(join(dataDir, "redis"), { recursive: true });
  rdbToAofDir(join(from, "redis/dump.rdb"), join(dataDir, "redis"));
  if (manifest.files.some((f) => f.path === "admin-key")) {
    copyFileSync(join(from, "admin-key"), join(dataDir, "admin-key"));
    chmodSync(join(dataDir, "admin-key"), 0o600);
  }

  const nats = remoteNats ? null : await startNats({ dataDir });
  const rewound: string[] = [];
  try {
    const nc = await connect({ servers: (remoteNats ?? nats!.url).split(","), name: "restore" });
    try {
      const jsm = await nc.jetstreamManager();
      // Every stream is checked before any changes: a refusal leaves the NATS as it was.
      const existing: string[] = [];
      for (const name of Object.keys(manifest.streams)) {
        if (remoteNats && (await jsm.streams.info(name).catch(() => null))) existing.push(name);
      }
      if (existing.length > 0 && !values["replace-streams"]) {
        throw new OperatorError(
          `Streams ${existing.join(", ")} exist in NATS at ${remoteNats}: ` +
            "stop every service, then run again with --replace-streams",
        );
      }
      for (const name of existing) await jsm.streams.delete(name);
      for (const [name, stream] of Object.entries(manifest.streams)) {
        await restoreStream(nc, name, stream, join(from, stream.file));
        if (stream.last_seq_at_point !== null) await dropAfter(nc, name, stream.last_seq_at_point);
        if (stream.ack_floors_at_point) rewound.push(...(await rewindConsumers(nc, name, stream.ack_floors_at_point)));
      }
    } finally {
      await nc.close();
    }
  } finally {
    await nats?.stop();
  }
  process.stdout.write(
    `restored the backup of ${manifest.point} into ${dataDir} in ${Date.now() - started} ms` +
      (moved.length > 0 ? `; what it held is in ${aside}` : "") +
      (rewound.length > 0 ? `; consumers replaying: ${rewound.join(", ")}` : "") +
      (remoteNats
        ? `\nnow put ${join(dataDir, "redis", "appendonlydir")} in place of Redis' own, ` +
          "then start Redis and the services\n"
        : `\nstart it with \`${dataDir === DEFAULT_DATA_DIR ? "" : `DATA_DIR=${dataDir} `}npm start\`\n`),
  );
});
