import type { Scope } from "../../services/contract/op";
import type { Ids } from "./ids";

export type Surface = "rest" | "graphql" | "mcp" | "stream";

/** What any surface answered, in one shape: HTTP status, error code ("OK" on success), message and details. */
export interface Outcome {
  status: number;
  code: string;
  message: string;
  details: string;
  /** The whole answer, to look for what must not be in it. */
  text: string;
  /** The answer was a kept one (Idempotent-Replayed). */
  replayed: boolean;
  /** The parsed answer (REST envelope, GraphQL result, MCP structured content), for counts. */
  body: unknown;
}

/** One operation of one surface, callable with any credential and any ids. */
export interface Case {
  surface: Surface;
  name: string;
  scope: Scope;
  write: boolean;
  /** Its path names resources: a foreign id there is a 404. */
  pathIds: boolean;
  /** It answers nothing, rather than a refusal, to a credential without its scope. */
  emptyWithoutScope?: boolean;
  build(ids: Ids): unknown;
  send(credential: string | undefined, request: unknown, headers?: Record<string, string>): Promise<Outcome>;
}

export const parse = (text: string): any => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export function envelopeOutcome(status: number, text: string, headers: Headers): Outcome {
  const body = parse(text);
  const error = body?.error;
  return {
    status,
    code: error?.code ?? (status < 400 ? "OK" : `HTTP_${status}`),
    message: error?.message ?? "",
    details: JSON.stringify(error?.details ?? null),
    text,
    replayed: headers.get("idempotent-replayed") === "true",
    body,
  };
}

export async function http(baseUrl: string, credential: string | undefined, init: RequestInit & { path: string }) {
  const headers = new Headers(init.headers);
  if (credential) headers.set("Authorization", `Bearer ${credential}`);
  const res = await fetch(baseUrl + init.path, { ...init, headers });
  return { res, text: await res.text() };
}
