/**
 * Content negotiation of /graphql, as graphql-yoga does it: the first media range of `Accept`
 * (in the client's order, q-values ignored) that yoga can serve wins; a wildcard means
 * application/json; a range naming a charset other than UTF-8 is skipped; no `Accept` is `*\/*`.
 */
export const GRAPHQL_RESPONSE_JSON = "application/graphql-response+json";
export const APPLICATION_JSON = "application/json";
/** What yoga streams subscriptions as. */
export const STREAM_TYPES = ["text/event-stream", "multipart/mixed"];
export const SERVED_TYPES = [GRAPHQL_RESPONSE_JSON, APPLICATION_JSON, ...STREAM_TYPES];

export type JsonMediaType = typeof GRAPHQL_RESPONSE_JSON | typeof APPLICATION_JSON;

function ranges(request: Request): string[] {
  const accept = (request.headers.get("accept") || "*/*").replace(/\s/g, "").toLowerCase();
  const out: string[] = [];
  for (const item of accept.split(",")) {
    const [range, ...params] = item.split(";");
    const charset = params.find((p) => p.includes("charset=")) ?? "charset=utf-8";
    if (range && charset === "charset=utf-8") out.push(range);
  }
  return out;
}

const covers = (range: string, type: string) => {
  const [rangeType, rangeSub] = range.split("/");
  const [mainType, subType] = type.split("/");
  return (rangeType === "*" || rangeType === mainType) && (rangeSub === "*" || rangeSub === subType);
};

/** Whether /graphql can answer in a media type the client accepts. */
export const acceptable = (request: Request) => ranges(request).some((r) => SERVED_TYPES.some((t) => covers(r, t)));

/** The media type of a single JSON result for this client; null if it accepts neither JSON type. */
export function jsonMediaType(request: Request): JsonMediaType | null {
  for (const range of ranges(request)) {
    if (covers(range, APPLICATION_JSON)) return APPLICATION_JSON;
    if (covers(range, GRAPHQL_RESPONSE_JSON)) return GRAPHQL_RESPONSE_JSON;
  }
  return null;
}
