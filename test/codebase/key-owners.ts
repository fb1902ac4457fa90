/**
 * The checks of key-ownership.test.ts: the ownership table parsed from docs/architecture.md, and what a Lua
 * script or a TypeScript module does to which key family, read from their source (no Redis needed).
 */

/** One key pattern of the table's Keys column, with its row's owner folder and Defined in files. */
export interface Family {
  pattern: string;
  re: RegExp;
  owner: string;
  definedIn: string[];
  /** The pattern's text before its hash tag or first placeholder (`m:`, `apikey:hash:`, `tokens:signing`). */
  literal: string;
  hashTagged: boolean;
}

const TAG = "{acme:live}";

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => c.trim());
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The table under "## Data ownership": Keys | Hash tag | Owner | Defined in. */
export function parseOwnershipTable(markdown: string): Family[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith("Data ownership"));
  if (!section) throw new Error('docs/architecture.md has no "## Data ownership" section');
  const rows = section.split("\n").filter((l) => l.startsWith("|"));
  const header = cellsOf(rows[0] ?? "");
  if (header[0] !== "Keys" || header[2] !== "Owner") throw new Error(`unexpected ownership table: ${rows[0]}`);
  const baseOf = (files: string[]) => {
    let dir = "";
    return files.map((f) => {
      if (f.includes("/")) dir = f.slice(0, f.lastIndexOf("/") + 1);
      return f.includes("/") ? f : dir + f;
    });
  };
  return rows.slice(2).flatMap((row) => {
    const [keys = "", , owner = "", defined = ""] = cellsOf(row);
    const folder = ticked(owner).find((t) => t.endsWith("/"));
    const patterns = ticked(keys).filter((t) => /^[a-z][a-z_-]*:/.test(t));
    if (!folder || patterns.length === 0) return [];
    const definedIn = baseOf(ticked(defined).filter((t) => /\.(ts|lua)$/.test(t)));
    return patterns.map((pattern) => {
      const literal = pattern.split(/[{<…]/)[0]!;
      const source = pattern
        .split(/(\{[^}]*\}|<[^>]*>|…)/)
        .map((p) =>
          p.startsWith("{")
            ? "\\{[^}]*\\}"
            : p.startsWith("<")
              ? "[^:]+"
              : p === "…"
                ? ".*"
                : p.replace(/[.*+?^$()|[\]\\]/g, "\\$&"),
        )
        .join("");
      const hashTagged = /^[a-z][a-z_-]*:[{…]/.test(pattern);
      return { pattern, re: new RegExp(`^${source}$`), owner: folder, definedIn, literal, hashTagged };
    });
  });
}

/** The module a file belongs to: the longest owner folder it is in ("" for none). */
const moduleOf = (path: string, families: Family[]) =>
  families.map((f) => f.owner).reduce((best, o) => (path.startsWith(o) && o.length > best.length ? o : best), "");

const familyOf = (key: string, families: Family[]) => families.find((f) => f.re.test(key));

const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;

/** Splits the arguments of a call that starts at `open` (just after its parenthesis), at its top-level commas. */
function argsAt(text: string, open: number): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = open;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === "(" || c === "{" || c === "[") depth++;
    else if ((c === ")" || c === "}" || c === "]") && depth-- === 0) {
      out.push(text.slice(start, i).trim());
      return out;
    } else if (c === "," && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return out;
}

/** What an identifier was assigned in the file (the first assignment; `local a, b = x, y` included). */
function assigned(text: string, name: string): string | undefined {
  const re = new RegExp(`(?:^|\\n)\\s*(?:local\\s+|const\\s+|let\\s+)?([\\w\\s,]*\\b${name}\\b[\\w\\s,]*)=(?!=)`, "g");
  for (const m of text.matchAll(re)) {
    const lhs = m[1]!.split(",").map((s) => s.trim());
    const at = lhs.indexOf(name);
    if (at < 0) continue;
    const rhs = argsAt(`${text.slice(m.index! + m[0].length).split("\n")[0]})`, 0);
    return rhs[at]?.replace(/;$/, "");
  }
  return undefined;
}

/** The key names Lua builds: keyspace.lua's TK, the memories library's K (aliases and its declared index keys). */
export interface LuaNames {
  tk: Record<string, string>;
  k: Record<string, string>;
}

export function luaNamesOf(texts: string[]): LuaNames {
  const tk: Record<string, string> = {};
  const k: Record<string, string> = {};
  const evalKey = (body: string) =>
    body
      .split("..")
      .map((t) => t.trim())
      .map((t) => (t.startsWith("'") ? t.slice(1, -1) : t === "T" ? TAG : "ID"))
      .join("");
  for (const text of texts.filter((t) => t.includes("local TK = {"))) {
    for (const m of text.matchAll(/^\s*(\w+) = function\([^)]*\) return (.+?) end,?$/gm)) tk[m[1]!] = evalKey(m[2]!);
  }
  for (const text of texts.filter((t) => t.includes("local K = {"))) {
    for (const m of text.matchAll(/^\s*(\w+) = TK\.(\w+),?$/gm)) if (tk[m[2]!]) k[m[1]!] = tk[m[2]!]!;
    for (const m of text.matchAll(/^\s*(\w+) = function\([^)]*\) return TK\.(\w+)\(/gm))
      if (tk[m[2]!]) k[m[1]!] = tk[m[2]!]!;
    // The declared keys: `--   KEYS[1] mi:{t:e}:created, [2] …` in the header, then in use_keys
    // `K.a, K.b = keys[1], keys[2]`.
    const declared: Record<string, string> = {};
    for (const m of text.matchAll(/\[(\d+)\] ([a-z]+:\{t:e\}:[\w:]+)/g)) declared[m[1]!] = m[2]!.replace("{t:e}", TAG);
    for (const m of text.matchAll(/^\s*((?:K\.\w+,\s*)*K\.\w+) = ((?:keys\[\d+\],\s*)*keys\[\d+\])$/gm)) {
      const lhs = m[1]!.split(",").map((s) => s.trim().slice(2));
      const rhs = [...m[2]!.matchAll(/keys\[(\d+)\]/g)].map((r) => declared[r[1]!]);
      lhs.forEach((name, i) => {
        if (rhs[i]) k[name] = rhs[i]!;
      });
    }
  }
  return { tk, k };
}

/** A script's KEYS as its header lists them in backticks (`-- KEYS: \`m:<id>\` …, then per tag: \`t:<id>\` …`). */
function declaredKeys(text: string): { fixed: string[]; each: string[] } | null {
  const m = /^-- KEYS:(.*(?:\n--\s{2,}.*)*)/m.exec(text);
  if (!m || !m[1]!.includes("`")) return null;
  const concrete = (t: string) =>
    t.includes("{") ? t.replace(/\{[^}]*\}/, TAG) : t.replace(/^([a-z]+):/, `$1:${TAG}:`).replace(/<[^>]*>/g, "ID");
  const [fixed = "", each = ""] = m[1]!.split(/\bper [^:]*:/);
  return { fixed: ticked(fixed).map(concrete), each: ticked(each).map(concrete) };
}

/** The key a Lua expression names, when the file says which (null: not known from the source). */
function luaKey(expr: string, text: string, names: LuaNames, depth = 0): string | null {
  const keys = /^KEYS\[(\d+)\]$/.exec(expr);
  if (keys) {
    const d = declaredKeys(text);
    const n = Number(keys[1]);
    if (!d) return null;
    if (n <= d.fixed.length) return d.fixed[n - 1]!;
    return d.each.length ? d.each[(n - d.fixed.length - 1) % d.each.length]! : null;
  }
  const tk = /\bTK\.(\w+)\b/.exec(expr);
  if (tk) return names.tk[tk[1]!] ?? null;
  const k = /\bK\.(\w+)\b/.exec(expr);
  if (k) return names.k[k[1]!] ?? null;
  if (/^\w+$/.test(expr) && depth < 3) {
    const rhs = assigned(text, expr);
    return rhs ? luaKey(rhs, text, names, depth + 1) : null;
  }
  return null;
}

const LUA_WRITES = new Set(
  (
    "SET SETEX PSETEX SETNX GETDEL INCR INCRBY DECR DECRBY APPEND DEL UNLINK EXPIRE PEXPIRE PEXPIREAT PERSIST RENAME " +
    "HSET HSETNX HMSET HDEL HINCRBY HINCRBYFLOAT SADD SREM SPOP SMOVE SINTERSTORE SUNIONSTORE SDIFFSTORE ZADD ZREM " +
    "ZINCRBY ZPOPMIN ZPOPMAX ZREMRANGEBYSCORE ZREMRANGEBYRANK ZUNIONSTORE ZINTERSTORE ZDIFFSTORE ZRANGESTORE LPUSH " +
    "RPUSH LPOP RPOP LREM LTRIM XADD VADD VREM VSETATTR"
  ).split(" "),
);
const ALL_KEYS = new Set(["DEL", "UNLINK"]);

/** Each `redis.call` of a script that writes a key family owned by another module than the script's. */
export function luaViolations(path: string, text: string, families: Family[], names: LuaNames): string[] {
  const mine = moduleOf(path, families);
  const out: string[] = [];
  for (const m of text.matchAll(/redis\.call\(\s*'(\w+)'\s*,/g)) {
    const cmd = m[1]!.toUpperCase();
    if (!LUA_WRITES.has(cmd)) continue;
    const args = argsAt(text, m.index! + m[0].length);
    for (const expr of ALL_KEYS.has(cmd) ? args : args.slice(0, 1)) {
      const key = luaKey(expr, text, names);
      const family = key && familyOf(key, families);
      if (family && family.owner !== mine)
        out.push(`${path}:${lineAt(text, m.index!)} ${cmd} ${expr}: ${family.pattern} is ${family.owner}'s`);
    }
  }
  return out;
}

const TS_COMMANDS =
  "get set del unlink exists expire pexpire hget hgetall hmget hset hsetnx hdel hincrby hstrlen hlen hexists " +
  "smembers sadd srem scard sismember zadd zrem zcard zrange zscore zmscore zrank zincrby zrangebyscore incr incrby";
const TS_COMMAND = new RegExp(`\\.(${TS_COMMANDS.split(" ").join("|")})\\(`, "g");

/**
 * A TypeScript file that runs a Redis command on a key memory-data/keyspace.ts names for another module, or
 * spells the literal prefix of another module's key (outside the files the table says define it).
 */
export function tsViolations(path: string, text: string, families: Family[], keys: [string, string][]): string[] {
  const mine = moduleOf(path, families);
  const out: string[] = [];
  const keyOf = new Map(keys);
  const spaces = [...text.matchAll(/(?:const|let)\s+(\w+)\s*=\s*keyspace\(/g)].map((m) => m[1]!);
  const member = new RegExp(
    `\\b(?:${["keyspace\\([^)]*\\)", ...spaces].join("|")})\\.(\\w+)|\\b(EXPIRY_REGISTRY\\.\\w+)`,
  );
  const keyIn = (expr: string, depth = 0): string | null => {
    const m = member.exec(expr);
    if (m) return keyOf.get(m[1] ?? m[2]!) ?? null;
    const rhs = /^\w+$/.test(expr) && depth < 3 ? assigned(text, expr) : undefined;
    return rhs ? keyIn(rhs, depth + 1) : null;
  };
  for (const m of text.matchAll(TS_COMMAND)) {
    const expr = argsAt(text, m.index! + m[0].length)[0] ?? "";
    const key = keyIn(expr);
    const family = key && familyOf(key, families);
    if (family && family.owner !== mine)
      out.push(`${path}:${lineAt(text, m.index!)} ${m[1]}(${expr}): ${family.pattern} is ${family.owner}'s`);
  }
  for (const m of text.matchAll(/["'`]([a-z][a-z_-]*:[^"'`\s]*)/g)) {
    const spelled = m[1]!;
    const of = families.filter((f) =>
      f.hashTagged
        ? spelled.startsWith(`${f.literal}{`) || spelled.startsWith(`${f.literal}\${`)
        : spelled.startsWith(f.literal),
    );
    if (of.length === 0 || of.some((f) => f.owner === mine || f.definedIn.includes(path))) continue;
    out.push(`${path}:${lineAt(text, m.index!)} "${spelled}": ${of[0]!.pattern} is ${of[0]!.owner}'s`);
  }
  return out;
}
