import { plural } from "./plural";

/** An instant as `YYYY-MM-DD HH:MM` UTC, or a dash for none. */
export function when(iso: string | null | undefined): string {
  if (!iso) return "—";
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** A `<input type="date">` value (a UTC day) as the start of that day in ISO 8601, or undefined when empty. */
export const dayStart = (day: string): string | undefined => (day ? `${day}T00:00:00.000Z` : undefined);

/** The UTC day `offset` days from today, as `YYYY-MM-DD`. */
export function utcDay(offset = 0): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

/** At most `max` characters of a text, with an ellipsis when cut. */
export const excerpt = (text: string, max = 140) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A number from a form field, or undefined when it is empty. */
export function numberOrUndefined(value: string): number | undefined {
  if (value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Parses a JSON object typed into a text area; throws a readable message when it is not one. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("Metadata is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error("Metadata must be a JSON object.");
  return value as Record<string, unknown>;
}

/** A byte count in decimal units (kB, MB, GB), as the storage quotas are set. */
export function bytes(n: number): string {
  const units = ["bytes", "kB", "MB", "GB", "TB"];
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return i === 0 ? plural(n, "byte") : `${v.toFixed(v < 10 ? 2 : 1)} ${units[i]}`;
}
