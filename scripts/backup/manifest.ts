import { createReadStream, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { StreamSnapshot } from "./jetstream-snapshot";

/**
 * A backup directory's `manifest.json`: what it holds (each file with its size and SHA-256), which versions made
 * it, when its point is, and what a restore needs besides the files (the streams' configurations and the
 * consumers' positions at the point).
 */
export const MANIFEST = "manifest.json";
export const FORMAT = 1;

export interface FileEntry {
  /** Relative to the backup directory. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  /** When Redis' writes were paused and its snapshot forked: the moment the backup stands for. */
  point: string;
  finished_at: string;
  versions: { app: string; commit: string | null; redis: string; nats: string };
  source: { data_dir: string | null; redis_url: string; nats_url: string };
  timings_ms: { writes_paused: number; total: number };
  files: FileEntry[];
  /**
   * Per stream: what the server said of its snapshot; for EVENTS (snapshotted after the point) also its last
   * sequence and its consumers' ack floors at the point, which a restore goes back to.
   */
  streams: Record<
    string,
    StreamSnapshot & {
      file: string;
      last_seq_at_point: number | null;
      ack_floors_at_point: Record<string, number> | null;
    }
  >;
}

export async function sha256(file: string): Promise<string> {
  const hash = new Bun.CryptoHasher("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export async function fileEntry(dir: string, path: string): Promise<FileEntry> {
  const full = join(dir, path);
  return { path, bytes: statSync(full).size, sha256: await sha256(full) };
}

export function readManifest(dir: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Manifest;
  } catch (err) {
    throw new Error(`${dir} is not a backup: cannot read ${MANIFEST} (${(err as Error).message})`);
  }
  if (manifest.format !== FORMAT)
    throw new Error(`${dir}: backup format ${manifest.format}, this version reads ${FORMAT}`);
  return manifest;
}

/** Every file of the manifest, present with its size and checksum; resolves with the first mismatch, else null. */
export async function firstMismatch(dir: string, manifest: Manifest): Promise<string | null> {
  for (const f of manifest.files) {
    let actual: FileEntry;
    try {
      actual = await fileEntry(dir, f.path);
    } catch {
      return `${f.path} is missing`;
    }
    if (actual.bytes !== f.bytes) return `${f.path} has ${actual.bytes} bytes, the manifest says ${f.bytes}`;
    if (actual.sha256 !== f.sha256) return `${f.path} does not match its SHA-256 in the manifest`;
  }
  return null;
}
