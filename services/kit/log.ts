/** Structured JSON logs on stdout; every line of a request carries its request_id. */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export function createLogger(base: Record<string, unknown>, level: LogLevel = "info"): Logger {
  const min = LEVELS[level];
  const write = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...base, ...fields });
    if (LEVELS[lvl] >= LEVELS.warn) process.stderr.write(line + "\n");
    else process.stdout.write(line + "\n");
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    child: (fields) => createLogger({ ...base, ...fields }, level),
  };
}

export const errorFields = (err: unknown) =>
  err instanceof Error
    ? { error: err.message, stack: err.stack?.split("\n").slice(0, 5).join(" | ") }
    : { error: String(err) };

/**
 * Logs a recurring warning at most once per interval, with the count of those it held back: an
 * outage of a dependency must not turn every request into a log line.
 */
export function throttledWarning(message: string, intervalMs = 5000) {
  let quietUntil = 0;
  let suppressed = 0;
  // `fields` may be a function: held-back warnings then cost nothing (an error's stack is not cheap).
  return (log: Logger, fields: Record<string, unknown> | (() => Record<string, unknown>) = {}) => {
    const now = Date.now();
    if (now < quietUntil) {
      suppressed++;
      return;
    }
    log.warn(message, { ...(typeof fields === "function" ? fields() : fields), similar_since_last: suppressed });
    quietUntil = now + intervalMs;
    suppressed = 0;
  };
}
