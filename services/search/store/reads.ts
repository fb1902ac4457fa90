import { execBatch } from "../../kit/slot-moves";
import type { RedisClient } from "../../kit/redis-functions";
import type { Space } from "../../kit/space";
import { DOC, THREAD_ORDER_TIME_DIGITS } from "./fields";
import { searchKeys } from "./keyspace";
import { hasRanges, suffixOf, type FilterSpec } from "../filters";
import type { SearchCall } from "../lua/library";

export interface Hit {
  id: string;
  score: number;
  /** A vector search's hit: the memory's chunks it returned, [chunk index, score], best first. */
  chunkScores?: [number, number][];
  /** A vector search's hit: the lowest score it returned (a bound above every chunk it did not return). */
  lowest?: number;
}

/** A stored vector as VEMB RAW gives it: int8 components; only its direction matters for cosine. */
export type QuantizedVector = Int8Array;

const hitsOf = (flat: unknown[]): Hit[] => {
  const out: Hit[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ id: String(flat[i]), score: Number(flat[i + 1]) });
  return out;
};

/** The memory a vector-set element belongs to: its id, or `<id>#<i>` for its chunk i (DOC.vectorCount). */
export const memoryOfElement = (element: string) => {
  const at = element.indexOf("#");
  return at < 0 ? element : element.slice(0, at);
};
const chunkElement = (id: string, i: number) => (i === 0 ? id : `${id}#${i}`);

/** The chunk a vector-set element is: i for `<id>#<i>`, 0 for the memory's id. */
const chunkIndexOf = (element: string) => {
  const at = element.indexOf("#");
  return at < 0 ? 0 : Number(element.slice(at + 1));
};

/** One hit per memory, its best chunk's, with every chunk of it returned (VSIM answers best first). */
function bestPerMemory(hits: Hit[]): Hit[] {
  const lowest = hits.length > 0 ? hits[hits.length - 1]!.score : 0;
  const byId = new Map<string, Hit & { chunkScores: [number, number][] }>();
  const out: Hit[] = [];
  for (const h of hits) {
    const id = memoryOfElement(h.id);
    let hit = byId.get(id);
    if (hit === undefined) {
      hit = { id, score: h.score, chunkScores: [], lowest };
      byId.set(id, hit);
      out.push(hit);
    }
    hit.chunkScores.push([chunkIndexOf(h.id), h.score]);
  }
  return out;
}

/** RAW: quantization name, blob, l2 norm, quantization range. Only int8 sets are written here. */
const int8Of = (raw: Buffer[] | null) =>
  raw && String(raw[0]) === "int8" ? new Int8Array(raw[1]!.buffer, raw[1]!.byteOffset, raw[1]!.byteLength) : null;

/**
 * VSIM holds its connection until it answers (a filtered search runs on a Redis thread), so vector queries
 * go round-robin over a small pool of connections instead of queueing behind each other. On a Redis
 * Cluster each pooled client is a Cluster client holding one connection per node, so every shard gets
 * a pool of that size.
 */
export function createPool(conns: RedisClient[]) {
  let next = 0;
  return () => conns[next++ % conns.length]!;
}

/**
 * Lexical candidates come from at most this many postings per query in all (each term's
 * highest-weighted ones, the budget split evenly between the terms, at least MIN_POSTINGS_PER_TERM
 * each); exact when every term's postings fit. Bounded work per query at any index size: copying
 * and summing a posting costs ~0.7 µs in the script (2,500 in ~1.8 ms at 100,000 memories), which
 * holds Redis meanwhile, and common words (the long postings) weigh little in BM25.
 */
export const LEXICAL_POSTINGS_BUDGET = 2500;
export const MIN_POSTINGS_PER_TERM = 200;
export const postingsPerTerm = (terms: number) =>
  Math.max(MIN_POSTINGS_PER_TERM, Math.floor(LEXICAL_POSTINGS_BUDGET / Math.max(1, terms)));

/** The one filter set a filter is (e.g. `tier = short`, or one tag), or null for anything else. */
function loneFilterSet(space: Space, spec?: FilterSpec): string | null {
  const lone = spec && spec.groups.length === 1 && spec.groups[0]!.length === 1 && !hasRanges(spec);
  return lone ? searchKeys(space).filter(suffixOf(spec.groups[0]![0]!)) : null;
}

/** What a query asks of the candidates store: the best by BM25 ('lex') or the newest ('browse'). */
export interface CandidatesQuery {
  mode: "lex" | "browse";
  k: number;
  spec: FilterSpec;
  /** 'lex': the query's terms with their idf. */
  terms?: [string, number][];
}

/** A VSIM query: the `count` vectors nearest to `vector` (of model `modelId`) that pass `filter`. */
export interface NearestQuery {
  modelId: string;
  vector: Float32Array;
  count: number;
  /** A VSIM FILTER expression, or null for none. */
  filter: string | null;
  /** FILTER-EF: how many graph nodes VSIM may visit looking for ones that pass (VSIM's default when absent). */
  filterEffort?: number;
}

/**
 * An unfiltered VSIM of at most this COUNT runs on Redis's main thread (NOTHREAD). Handing a search to a thread
 * and its answer back costs more than a small search itself: single-client search p50 −7% at 10,000 memories on 2
 * cores. Its work is bounded by its COUNT (the candidates of a query, at most 200), about what the lexical function
 * already holds Redis for. A filtered VSIM, which may visit up to FILTER-EF nodes, and an oversampled one keep
 * their thread.
 */
export const MAIN_THREAD_VSIM_MAX_COUNT = 200;

/** VSIM's arguments for a query on the vector set `key`. */
export function vsimArgs(key: string, query: NearestQuery): (string | number | Buffer)[] {
  const { vector, count, filter, filterEffort } = query;
  const args: (string | number | Buffer)[] = [
    key,
    "FP32",
    Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
    "WITHSCORES",
    "COUNT",
    count,
  ];
  if (filter) args.push("FILTER", filter);
  if (filter && filterEffort) args.push("FILTER-EF", filterEffort);
  if (!filter && count <= MAIN_THREAD_VSIM_MAX_COUNT) args.push("NOTHREAD");
  return args;
}

/** Where a memory sits in its thread: its parent, and its member of the thread's order (threadOrderMember). */
export interface ThreadPlace {
  parent: string;
  member: string;
}

/** The id a thread-order member names (fields.ts threadOrderMember: two times, then the id). */
const memberId = (member: string) => member.slice(2 * THREAD_ORDER_TIME_DIGITS);

/** What fusion still needs of some candidates (see `complete`). */
export interface CompletionQuery {
  modelId: string;
  /** The query's terms, for the BM25 weights of `lexicalFor`. */
  terms: string[];
  lexicalFor: string[];
  vectorsFor: string[];
  /** Whether some memories of the index have several vectors (chunks): then every chunk's is read. */
  chunked?: boolean;
  prevFor: string[];
  /** The query's names (as terms), and the ids whose postings are checked for them. */
  names?: string[];
  namesFor?: string[];
}

/** Index reads of one query. */
export function createReadStore(redis: RedisClient, call: SearchCall, vsimConnection: () => RedisClient) {
  return {
    /** N, document frequency of each term, and the size of the model's vector set. */
    async termStats(
      space: Space,
      terms: string[],
      modelId: string,
      spec?: FilterSpec,
      nowMs = Date.now(),
    ): Promise<{ n: number; df: number[]; vectors: number; passing: number | null; expired: number }> {
      const k = searchKeys(space);
      // A lone filter set (the common case) tells how many memories pass without running the query.
      const lone = loneFilterSet(space, spec);
      const [n, vectors, passing, expired, ...df] = await Promise.all([
        redis.zcard(k.all),
        redis.call("VCARD", k.vectors(modelId)) as Promise<number>,
        lone ? redis.zcard(lone) : Promise.resolve(null),
        redis.zcount(k.expiring, "-inf", nowMs),
        ...terms.map((t) => redis.zcard(k.term(t))),
      ]);
      return { n, vectors: Number(vectors), passing, expired, df };
    },

    /** Which of `ids` are past their expires_at (indexed still, until the memories service purges them). */
    async expiredAmong(space: Space, ids: string[], nowMs = Date.now()): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const at = await redis.zmscore(searchKeys(space).expiring, ...ids);
      return new Set(ids.filter((_, i) => at[i] !== null && Number(at[i]) <= nowMs));
    },

    /** Top k by BM25 among memories passing the filters ('lex'), or newest first ('browse'); and how many pass. */
    async candidates(space: Space, query: CandidatesQuery): Promise<{ count: number; hits: Hit[] }> {
      const { mode, k, spec, terms = [] } = query;
      const keys = searchKeys(space);
      const lex = mode === "lex" ? terms : [];
      // query.lua's scratch sets: one per group of several filters, one for the filter, one for an
      // occurred_at range and one for as_of's superseded, and in 'lex' one for the sum plus one per term
      // whose postings it cuts.
      const ranges = spec.occurredAfter !== undefined || spec.occurredBefore !== undefined ? 1 : 0;
      const scratch =
        spec.groups.filter((g) => g.length > 1).length +
        1 +
        ranges +
        (spec.validAfter !== undefined ? 1 : 0) +
        (mode === "lex" ? 1 + lex.length : 0);
      const tmp = keys.tmp();
      const declared = [
        keys.all,
        keys.occurred,
        keys.validTo,
        ...Array.from({ length: scratch }, (_, i) => `${tmp}:${i}`),
        ...spec.groups.flatMap((g) => g.map((t) => keys.filter(suffixOf(t)))),
        ...lex.map(([term]) => keys.term(term)),
      ];
      const args = [
        mode,
        k,
        JSON.stringify(spec.groups.map((g) => g.length)),
        spec.after ?? "",
        spec.before ?? "",
        JSON.stringify(lex.map(([, idf]) => idf)),
        scratch,
        postingsPerTerm(terms.length),
        spec.occurredAfter ?? "",
        spec.occurredBefore ?? "",
        spec.validAfter ?? "",
      ];
      const [count, flat] = (await call("query", declared, args)) as [number, unknown[]];
      return { count: Number(count), hits: hitsOf(flat) };
    },

    /** Which of `ids` pass a filter that is one filter set (see termStats' `passing`). */
    async passLoneFilter(space: Space, spec: FilterSpec, ids: string[]): Promise<boolean[]> {
      const lone = loneFilterSet(space, spec);
      if (!lone) throw new Error("passLoneFilter: the filter is not a single filter set");
      if (ids.length === 0) return [];
      return (await redis.zmscore(lone, ...ids)).map((s) => s !== null);
    },

    /**
     * Nearest memories (VSIM score = (1 + cosine) / 2, of a memory's best chunk) among those whose attributes
     * pass `filter`: `count` vectors, so fewer memories when several chunks of one are near.
     */
    async nearest(space: Space, query: NearestQuery): Promise<Hit[]> {
      const args = vsimArgs(searchKeys(space).vectors(query.modelId), query);
      const flat = (await vsimConnection().call("VSIM", ...args)) as unknown[];
      return bestPerMemory(hitsOf(flat));
    },

    /**
     * What fusion still needs, in one round trip: the BM25 weights of `lexicalFor` ids for each query
     * term, the stored vectors of `vectorsFor` ids (every chunk's: a second round trip for memories that
     * have several), the previous sibling, thread place and chunk count of every candidate, and which of the
     * query's `names` the postings of `namesFor` ids hold.
     */
    async complete(space: Space, query: CompletionQuery) {
      const { modelId, terms, lexicalFor, vectorsFor, prevFor } = query;
      const names = query.namesFor?.length ? (query.names ?? []) : [];
      const k = searchKeys(space);
      // One read of each memory's record serves its sibling, thread place and chunk count (which says how many
      // chunk vectors to read when some memories of the index have several).
      const prevSet = new Set(prevFor);
      const docsFor = [...prevFor, ...(query.chunked ? vectorsFor.filter((id) => !prevSet.has(id)) : [])];
      const res = await execBatch(() => {
        const pipe = redis.pipeline();
        if (lexicalFor.length > 0) for (const t of terms) pipe.zmscore(k.term(t), ...lexicalFor);
        for (const id of vectorsFor) pipe.callBuffer("VEMB", k.vectors(modelId), id, "RAW");
        for (const id of docsFor)
          pipe.hmget(k.doc(id), DOC.previousSibling, DOC.parent, DOC.threadOrder, DOC.vectorCount);
        for (const t of names) pipe.zmscore(k.term(t), ...query.namesFor!);
        return pipe;
      });
      let i = 0;
      const weights: (number | null)[][] =
        lexicalFor.length > 0
          ? terms.map(() => (res[i++] as (string | null)[]).map((x) => (x === null ? null : Number(x))))
          : [];
      const vectors = new Map<string, QuantizedVector[]>();
      for (const id of vectorsFor) {
        const v = int8Of(res[i++] as Buffer[] | null);
        if (v) vectors.set(id, [v]);
      }
      const prev = new Map<string, string>();
      const place = new Map<string, ThreadPlace>();
      const chunks = new Map<string, number>();
      for (const id of docsFor) {
        const [p, parent, member, vc] = res[i++] as (string | null)[];
        if (p && prevSet.has(id)) prev.set(id, p);
        if (parent && member && prevSet.has(id)) place.set(id, { parent, member });
        if (vc && Number(vc) > 1) chunks.set(id, Number(vc));
      }
      const chunked = (query.chunked ? vectorsFor : []).flatMap((id) => {
        const n = chunks.get(id) ?? 1;
        return n > 1 && vectors.has(id) ? [{ id, n }] : [];
      });
      const held = names.map(() => (res[i++] as (string | null)[]).map((x) => x !== null));
      if (chunked.length > 0) {
        const more = await execBatch(() => {
          const pipe = redis.pipeline();
          for (const { id, n } of chunked)
            for (let c = 1; c < n; c++) pipe.callBuffer("VEMB", k.vectors(modelId), chunkElement(id, c), "RAW");
          return pipe;
        });
        let j = 0;
        for (const { id, n } of chunked) {
          for (let c = 1; c < n; c++) {
            const v = int8Of(more[j++] as Buffer[] | null);
            if (v) vectors.get(id)!.push(v);
          }
        }
      }
      return { weights, vectors, prev, place, chunks, held };
    },

    /** The next sibling of each memory at `places` (in its thread's order), or null for a thread's last. */
    async nextSiblings(space: Space, places: ThreadPlace[]): Promise<(string | null)[]> {
      if (places.length === 0) return [];
      const k = searchKeys(space);
      const res = await execBatch(() => {
        const pipe = redis.pipeline();
        for (const { parent, member } of places)
          pipe.zrange(k.threadOrder(parent), `(${member}`, "+", "BYLEX", "LIMIT", 0, 1);
        return pipe;
      });
      return res.map((r) => {
        const member = (r as string[])[0];
        return member === undefined ? null : memberId(member);
      });
    },

    /** The first `max` memories of each thread (children of `parents`), in the thread's order. */
    async threadMembers(space: Space, parents: string[], max: number): Promise<string[][]> {
      if (parents.length === 0) return [];
      const k = searchKeys(space);
      const res = await execBatch(() => {
        const pipe = redis.pipeline();
        for (const parent of parents) pipe.zrange(k.threadOrder(parent), "0", String(max - 1));
        return pipe;
      });
      return res.map((r) => (r as string[]).map(memberId));
    },
  };
}

export type ReadStore = ReturnType<typeof createReadStore>;
