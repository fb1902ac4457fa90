/**
 * Scalar's standalone bundle, as the /docs page serves it. The bundle carries zod, which learns once whether it may
 * compile validators by running `new Function("")`. The pages' CSP refuses eval, so the probe fails and zod uses its
 * interpreter, but Chromium logs the refusal as a console error on every visit. The probe's answer under this CSP is
 * known in advance: the served bundle answers it without trying, and behaves exactly as before.
 */
const EVAL_PROBE = 'try{return new Function(""),!0}catch(e){return!1}';
const EVAL_ANSWER = "return!1";

export interface ScalarBundle {
  body: Uint8Array<ArrayBuffer>;
  /** False when the probe was not found (a new Scalar release): the page then logs the one CSP refusal again. */
  probeAnswered: boolean;
}

/** The bundle with zod's eval probe answered "no" (see above). */
export function servedScalarBundle(original: Uint8Array<ArrayBuffer>): ScalarBundle {
  const text = new TextDecoder().decode(original);
  const at = text.indexOf(EVAL_PROBE);
  if (at < 0 || text.indexOf(EVAL_PROBE, at + 1) >= 0) return { body: original, probeAnswered: false };
  const body = new TextEncoder().encode(text.slice(0, at) + EVAL_ANSWER + text.slice(at + EVAL_PROBE.length));
  return { body, probeAnswered: true };
}
