#!/usr/bin/env node
import { createInterface } from "node:readline";
import { runStdioBridge } from "./mcp-stdio.ts";

/** `memory-service-mcp`: MCP over stdio, configured by MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY. */
const url = process.env.MEMORY_SERVICE_URL;
const apiKey = process.env.MEMORY_SERVICE_API_KEY;
if (!url || !apiKey) {
  process.stderr.write("memory-service-mcp: set MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY\n");
  process.exit(2);
}
// stdout carries the protocol only; everything else goes to stderr.
await runStdioBridge({
  url,
  apiKey,
  lines: createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY }),
  write: (line) => process.stdout.write(`${line}\n`),
  log: (message) => process.stderr.write(`${message}\n`),
});
