import { ID_FIELDS, type Ids } from "./ids";
import type { Case, Outcome } from "./operations";

/** The id arguments a case's request carries (each id value is unique, so its presence in the request shows it). */
export function usedFields(c: Case, probe: Required<Ids>): (keyof Ids)[] {
  const sent = JSON.stringify(c.build(probe));
  return ID_FIELDS.filter((f) => sent.includes(probe[f]));
}

/** An outcome with the ids it was sent replaced by their role: what an answer says apart from echoing them. */
export function normalized(o: Outcome, ids: Ids) {
  const strip = (s: string) => ID_FIELDS.reduce((acc, f) => (ids[f] ? acc.replaceAll(ids[f], `<${f}>`) : acc), s);
  return { status: o.status, code: o.code, message: strip(o.message), details: strip(o.details) };
}

/** "" when both answers read the same, else a line saying how they differ. */
export function sameAnswer(a: Outcome, aIds: Ids, b: Outcome, bIds: Ids): string {
  const x = normalized(a, aIds);
  const y = normalized(b, bIds);
  return JSON.stringify(x) === JSON.stringify(y) ? "" : `${JSON.stringify(x)} but unknown ids: ${JSON.stringify(y)}`;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Collects failures of many cases, so one run lists them all instead of stopping at the first. */
export class Failures {
  readonly lines: string[] = [];
  add(c: Case, credential: string, what: string) {
    // Ids differ from case to case: one line per kind of failure is enough to read.
    const line = `${c.surface} ${c.name} [${credential}]: ${what}`.replace(UUID, "<id>").slice(0, 600);
    if (!this.lines.includes(line)) this.lines.push(line);
  }
  message() {
    return `${this.lines.length} failing case(s):\n${this.lines.join("\n")}`;
  }
}

export const brief = (o: Outcome) => `${o.status} ${o.code} ${o.message} ${o.text.slice(0, 200)}`;
