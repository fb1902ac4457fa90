/**
 * Starts Scalar's API reference at /docs on the OpenAPI document the gateway serves. Scalar's standalone bundle
 * (loaded just before this file) defines the global `Scalar`. Its default web fonts and its "Ask AI" agent (on by
 * default for pages on localhost) reach Scalar's servers, so both are off: the page loads nothing from another
 * origin, and its Content-Security-Policy would refuse it anyway.
 */
declare const Scalar: { createApiReference(target: string, config: Record<string, unknown>): unknown };

Scalar.createApiReference("#app", {
  url: "/docs/json",
  withDefaultFonts: false,
  agent: { disabled: true },
  // Its toolbar (shown on localhost) offers Scalar's hosted services: nothing this gateway serves.
  showDeveloperTools: "never",
  hideClientButton: true,
});
