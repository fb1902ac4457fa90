import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./install-helpers";

/** The documents a user follows: the README, docs/ and the clients' READMEs. */
function documents(): string[] {
  const docs = readdirSync(join(REPO, "docs"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f));
  const clients = readdirSync(join(REPO, "clients"), { withFileTypes: true })
    .map((d) => join("clients", d.name, "README.md"))
    .filter((f) => existsSync(join(REPO, f)));
  return ["README.md", ...docs, ...clients];
}

/** The commands each package the repository installs from the registry provides (its dependencies' bins). */
function installedBins(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
  const bins = new Set<string>();
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
    const { bin } = JSON.parse(readFileSync(join(REPO, "node_modules", name, "package.json"), "utf8"));
    if (typeof bin === "string") bins.add(name.split("/").pop()!);
    else for (const command of Object.keys(bin ?? {})) bins.add(command);
  }
  return bins;
}

/** A path (or a placeholder for one: `<path>/…`) or a tarball, not a name for a registry to resolve. */
const isFile = (spec: string) => /^(\/|\.{1,2}\/|~\/|<|file:)/.test(spec) || spec.endsWith(".tgz");

/** A document's code: its fenced blocks and its inline code spans, where it shows commands to run. */
function code(text: string): string[] {
  const blocks = [...text.matchAll(/```[a-z]*\n([\s\S]*?)\n[ \t]*```/g)].map((m) => m[1]!);
  const prose = text.replace(/```[a-z]*\n[\s\S]*?\n[ \t]*```/g, "");
  return [...blocks, ...[...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!)];
}

/** The commands a document shows: in its code, and those its MCP configs (JSON blocks) make a client run. */
function commands(text: string): string[] {
  const found: string[] = [];
  for (const snippet of code(text)) {
    found.push(
      ...[...snippet.matchAll(/\b(?:npx|bunx|npm exec|(?:npm|bun|pnpm|yarn) (?:install|i|add))\b.*/g)].map((m) => m[0]),
    );
    if (!snippet.includes('"mcpServers"')) continue;
    for (const { command, args = [] } of Object.values<{ command?: string; args?: string[] }>(
      JSON.parse(snippet).mcpServers,
    ))
      if (command) found.push([command, ...args].join(" "));
  }
  return found;
}

/**
 * Why: a command that fetches a package by a name this project does not own runs whoever publishes that name.
 * npx may run only a command the repository's own dependencies provide, or a package given as a file
 * (`--package=/path/….tgz`); `npm install` only a path.
 */
function namesOnlyOurs(line: string, bins: Set<string>): boolean {
  const [tool, ...words] = line.split(/\s+/).filter(Boolean);
  const runs = tool === "npx" || tool === "bunx" || words[0] === "exec";
  const install = !runs && ["install", "i", "add"].includes(words[0]!);
  if (!runs && !install) return true;
  // After `npm exec` or `npm install` come its arguments; after npx, bunx, at once.
  const args = tool === "npx" || tool === "bunx" ? words : words.slice(1);
  const command = args.find((w) => !w.startsWith("-"));
  if (install) return !command || /^\d/.test(command) || isFile(command);
  const packages = args.filter((w) => w.startsWith("--package=")).map((w) => w.slice("--package=".length));
  if (packages.length > 0) return packages.every(isFile);
  return command !== undefined && bins.has(command);
}

describe("the docs name no npm package the project does not own", () => {
  test("every npx, bunx and npm install, in text or an MCP config, names a file or a dependency's command", () => {
    const bins = installedBins();
    const wrong = documents().flatMap((file) =>
      commands(readFileSync(join(REPO, file), "utf8"))
        .filter((line) => !namesOnlyOurs(line, bins))
        .map((line) => `${file}: ${line}`),
    );
    expect(wrong).toEqual([]);
  });
});
