const CLIENT_ID_RE = /^[A-Za-z0-9._:-]{8,128}$/;

/** Honours a well-formed client `X-Request-Id` (for tracing across systems), else makes one. */
export const requestIdOf = (request: Request): string => {
  const given = request.headers.get("x-request-id");
  return given && CLIENT_ID_RE.test(given) ? given : crypto.randomUUID();
};
