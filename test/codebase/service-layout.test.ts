import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

/**
 * Every service has one skeleton: main.ts (wiring only), config.ts (its settings), handlers/, store/ (its Redis
 * calls), lua/ with the library declaration beside the Lua (lua/library.ts), and cli/ for its operator
 * commands. So a reader finds a service's parts where they find another's, and a new setting has one place.
 * Modules that are no process (memory-data, tenant-settings) keep their Lua in lua/ too.
 */
const ROOT = resolve(import.meta.dir, "../..");

const listed = async (...globs: string[]) => {
  const git = Bun.spawn(["git", "ls-files", "-z", ...globs], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  return (await new Response(git.stdout).text()).split("\0").filter((p) => p && existsSync(resolve(ROOT, p)));
};
const text = (path: string) => Bun.file(resolve(ROOT, path)).text();
const isTestCode = (p: string) => /\.test\.ts$|\.fixture(\.ts|\/)|\/bench\//.test(p);

const files = await listed("services", "gateway");
const code = files.filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts") && !isTestCode(p));
const services = files.filter((p) => /^services\/[^/]+\/main\.ts$/.test(p)).map((p) => p.slice(0, -"main.ts".length));
/** Folders of services/ whose code builds on Lua: the services, and the modules memory-data and tenant-settings. */
const withLua = [...new Set(files.filter((p) => /^services\/[^/]+\/.*\.lua$/.test(p)).map((p) => p.split("/")[1]))]
  .filter((name) => name !== "kit")
  .map((name) => `services/${name}/`);

describe("the service skeleton", () => {
  test("there are services to check", () => {
    expect(services).toEqual(expect.arrayContaining(["services/keys/", "services/memories/", "services/tags/"]));
  });

  test("every service has main.ts, config.ts, handlers/ and store/ (a folder, not a store.ts)", () => {
    const missing: string[] = [];
    for (const dir of services) {
      for (const part of ["config.ts", "handlers/", "store/"])
        if (!files.some((p) => p.startsWith(dir + part))) missing.push(dir + part);
      if (files.includes(`${dir}store.ts`)) missing.push(`${dir}store.ts → ${dir}store/index.ts`);
    }
    expect(missing).toEqual([]);
  });

  test("main.ts is wiring: settings are declared and loaded in config.ts", async () => {
    const offenders: string[] = [];
    for (const dir of services) {
      const main = await text(`${dir}main.ts`);
      if (/loadServiceConfig\(|loadConfig\(|\bT\.[A-Z]\w*\(|process\.env|Bun\.env/.test(main))
        offenders.push(`${dir}main.ts`);
    }
    expect(offenders).toEqual([]);
  });

  test("Lua sits in lua/, and its library is declared beside it, in lua/library.ts", async () => {
    const astray = files.filter(
      (p) => p.endsWith(".lua") && withLua.some((d) => p.startsWith(d)) && !/\/lua\//.test(p),
    );
    expect(astray).toEqual([]);
    const declaring: string[] = [];
    for (const p of code.filter((p) => p.startsWith("services/")))
      if (/\bdefineLibrary\(\{/.test(await text(p)) && !p.endsWith("/lua/library.ts")) declaring.push(p);
    expect(declaring).toEqual([]);
  });

  test("a service's operator commands sit in its cli/", async () => {
    const astray: string[] = [];
    for (const p of code.filter((p) => /^services\/(?!kit\/)/.test(p)))
      if (/\b(operatorArgs|parseArgs)\(|process\.argv/.test(await text(p)) && !/\/cli\//.test(p)) astray.push(p);
    expect(astray).toEqual([]);
  });

  // The gateway too: its logs reach the same readers, who look for the stack in the same field.
  test("errors are logged with errorFields (kit/log.ts), never as a bare message", async () => {
    const bare: string[] = [];
    for (const p of code) {
      const lines = (await text(p)).split("\n");
      lines.forEach((line, i) => {
        if (/\blog\??\.(error|warn)\(.*\{ (error|message): [^}]*\.message\b/.test(line)) bare.push(`${p}:${i + 1}`);
      });
    }
    expect(bare).toEqual([]);
  });
});

/** The names in the first column of docs/operations.md's configuration table (Variable | Default | ...). */
export function documentedSettings(markdown: string): Set<string> {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => /^\|\s*Variable\s*\|\s*Default\s*\|/.test(l));
  if (start < 0) throw new Error("docs/operations.md has no | Variable | Default | ... | table");
  const names = new Set<string>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const first = line.split("|")[1] ?? "";
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
  }
  return names;
}

/**
 * Every setting the code reads: `process.env.X`, `Bun.env.X`, an operator command's `env.X`, and the names of
 * the settings schemas the config helper loads (the keys of every config.ts, kit/config.ts' BaseConfig included).
 */
export async function settingsRead(paths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const p of paths) {
    const source = await text(p);
    const reads = source.matchAll(
      /(?<!["'])\b(?:process\.env|Bun\.env|env)(?:\.([A-Z][A-Z0-9_]*)\b|\[["']([A-Z][A-Z0-9_]*)["']\])/g,
    );
    for (const m of reads) if (!out.has(m[1] ?? m[2]!)) out.set(m[1] ?? m[2]!, p);
    if (p.endsWith("/config.ts"))
      for (const m of source.matchAll(/^\s+([A-Z][A-Z0-9_]*): /gm)) if (!out.has(m[1]!)) out.set(m[1]!, p);
  }
  return out;
}

describe("settings", () => {
  test("the table parser reads every name of a row", () => {
    const md = "| Variable | Default | Used by | Meaning |\n|---|---|---|---|\n| `A_B` / `C` | 1 | x | y |\n\nafter";
    expect([...documentedSettings(md)]).toEqual(["A_B", "C"]);
  });

  test("every setting read is in docs/operations.md's configuration table", async () => {
    const documented = documentedSettings(await text("docs/operations.md"));
    const read = await settingsRead(code);
    expect(read.size).toBeGreaterThan(20);
    const missing = [...read].filter(([name]) => !documented.has(name));
    expect(missing.map(([name, where]) => `${name} (read in ${where})`)).toEqual([]);
  });
});
