/**
 * What a request says about its client. Behind a reverse proxy (TRUST_PROXY=true) the gateway believes the proxy's
 * X-Forwarded-Proto and the address the proxy appended last to X-Forwarded-For; otherwise a client could claim
 * anything there, so only the request URL and the TCP peer count.
 */

/** The request reached us over TLS: an https URL, or a trusted proxy's `X-Forwarded-Proto: https`. */
export function cameOverTls(request: Request, trustProxy: boolean): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  if (!trustProxy) return false;
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return proto === "https";
}

/** The client's address: the TCP peer, or the entry a trusted proxy appended to X-Forwarded-For. */
export function clientAddressOf(request: Request, peer: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return peer ?? "unknown";
}

/** The host the client asked for: the Host header, or the one a trusted proxy names in X-Forwarded-Host. */
export function hostOf(request: Request, trustProxy: boolean): string | null {
  const forwarded = trustProxy ? request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return forwarded || request.headers.get("host");
}
