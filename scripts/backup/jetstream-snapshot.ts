import { createReadStream, createWriteStream } from "node:fs";
import { createInbox, DeliverPolicy, Empty, type NatsConnection } from "nats";

/**
 * JetStream's part of a backup, through the server's own snapshot and restore API (`$JS.API.STREAM.SNAPSHOT.*`
 * and `$JS.API.STREAM.RESTORE.*`, what `nats stream backup` uses): a stream's messages and its consumers' state,
 * consistent as the server takes it, in the server's own format. nats.js 2.29's JetStream manager has no call
 * for these, so the requests are made here, as the server documents them.
 */

const CHUNK_BYTES = 128 * 1024;
const API_TIMEOUT_MS = 10_000;
/** A restore's last reply comes once the server has unpacked and loaded the stream. */
const FINISH_TIMEOUT_MS = 300_000;

export interface StreamSnapshot {
  /** The stream's configuration and state as the server reports them when the snapshot starts. */
  config: Record<string, unknown>;
  state: { messages: number; bytes: number; first_seq: number; last_seq: number; consumer_count: number };
}

interface ApiReply {
  error?: { code: number; description: string };
}

const decode = <T>(data: Uint8Array): T & ApiReply => JSON.parse(new TextDecoder().decode(data)) as T & ApiReply;

function apiError(what: string, reply: ApiReply): Error | null {
  return reply.error ? new Error(`${what}: ${reply.error.description} (${reply.error.code})`) : null;
}

/** Writes the snapshot of `stream` (with its consumers) to `file`; resolves with what the server says of it. */
export async function snapshotStream(nc: NatsConnection, stream: string, file: string): Promise<StreamSnapshot> {
  const inbox = createInbox();
  const out = createWriteStream(file);
  let fail: (err: Error) => void = () => undefined;
  const received = new Promise<void>((resolve, reject) => {
    fail = reject;
    nc.subscribe(inbox, {
      callback: (err, m) => {
        if (err) return reject(err);
        // The end: an empty message, carrying a status header when the server failed mid-way.
        if (m.data.length === 0) {
          const code = m.headers?.code ?? 0;
          if (code >= 400) reject(new Error(`snapshot of ${stream}: ${code} ${m.headers?.description ?? ""}`));
          else out.end(() => resolve());
          return;
        }
        out.write(m.data);
        // Each reply is the flow control's acknowledgement of a chunk.
        if (m.reply) m.respond(Empty);
      },
    });
  });
  await nc.flush();
  const reply = decode<StreamSnapshot>(
    (
      await nc.request(
        `$JS.API.STREAM.SNAPSHOT.${stream}`,
        JSON.stringify({ deliver_subject: inbox, chunk_size: CHUNK_BYTES, no_consumers: false }),
        { timeout: API_TIMEOUT_MS },
      )
    ).data,
  );
  const error = apiError(`snapshot of ${stream}`, reply);
  if (error) {
    fail(error);
    out.destroy();
  }
  await received;
  return { config: reply.config, state: reply.state };
}

/** Recreates `stream` from a snapshot file; the stream must not exist. */
export async function restoreStream(
  nc: NatsConnection,
  stream: string,
  snapshot: StreamSnapshot,
  file: string,
): Promise<void> {
  const started = decode<{ deliver_subject: string }>(
    (
      await nc.request(
        `$JS.API.STREAM.RESTORE.${stream}`,
        JSON.stringify({ config: snapshot.config, state: snapshot.state }),
        { timeout: API_TIMEOUT_MS },
      )
    ).data,
  );
  const error = apiError(`restore of ${stream}`, started);
  if (error) throw error;
  for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
    const ack = await nc.request(started.deliver_subject, chunk as Buffer, { timeout: API_TIMEOUT_MS });
    const text = new TextDecoder().decode(ack.data);
    if (text.startsWith("-ERR")) throw new Error(`restore of ${stream}: ${text}`);
  }
  const done = await nc.request(started.deliver_subject, Empty, { timeout: FINISH_TIMEOUT_MS });
  const finished = apiError(`restore of ${stream}`, decode(done.data));
  if (finished) throw finished;
}

/** The stream's last sequence now. */
export async function lastSeq(nc: NatsConnection, stream: string): Promise<number> {
  return (await (await nc.jetstreamManager()).streams.info(stream)).state.last_seq;
}

/**
 * Deletes the messages published after `seq`: in a restore, the events of writes that came after the backup's
 * point (they were published while the stream's snapshot was being taken), whose writes the RDB does not hold.
 */
export async function dropAfter(nc: NatsConnection, stream: string, seq: number): Promise<number> {
  const jsm = await nc.jetstreamManager();
  const last = (await jsm.streams.info(stream)).state.last_seq;
  let dropped = 0;
  for (let s = seq + 1; s <= last; s++) {
    // A sequence may be gone already (expired, or never stored): only what is there counts.
    if (await jsm.streams.deleteMessage(stream, s, false).catch(() => false)) dropped++;
  }
  return dropped;
}

/** Each durable consumer of `stream` and the stream sequence up to which it has acknowledged everything. */
export async function ackFloors(nc: NatsConnection, stream: string): Promise<Record<string, number>> {
  const jsm = await nc.jetstreamManager();
  const floors: Record<string, number> = {};
  for await (const c of jsm.consumers.list(stream)) {
    if (c.config.durable_name) floors[c.name] = c.ack_floor.stream_seq;
  }
  return floors;
}

/**
 * The ack floors once acknowledgements already on their way have landed: read until two reads 200 ms apart
 * agree (at most `timeoutMs`). While Redis' writes are paused no consumer can finish new work, so the floors
 * settle at once; what moves them is an ack sent just before the pause.
 */
export async function settledFloors(
  nc: NatsConnection,
  stream: string,
  timeoutMs = 2_000,
): Promise<Record<string, number>> {
  const deadline = Date.now() + timeoutMs;
  let last = await ackFloors(nc, stream);
  for (;;) {
    await Bun.sleep(200);
    const now = await ackFloors(nc, stream);
    if (JSON.stringify(now) === JSON.stringify(last) || Date.now() > deadline) return now;
    last = now;
  }
}

/**
 * Puts each consumer back to the position it had at the backup's point: everything after its ack floor then
 * is delivered again. Its own settings are kept; only where it starts changes.
 */
export async function rewindConsumers(
  nc: NatsConnection,
  stream: string,
  floors: Record<string, number>,
): Promise<string[]> {
  const jsm = await nc.jetstreamManager();
  const rewound: string[] = [];
  for (const [name, floor] of Object.entries(floors)) {
    const info = await jsm.consumers.info(stream, name).catch(() => null);
    if (!info || (info.ack_floor.stream_seq <= floor && info.delivered.stream_seq <= floor)) continue;
    await jsm.consumers.delete(stream, name);
    await jsm.consumers.add(stream, {
      ...info.config,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: floor + 1,
    });
    rewound.push(`${name} from ${floor + 1}`);
  }
  return rewound;
}
