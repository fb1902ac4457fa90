import { dirname } from "node:path";

/**
 * What the /docs page (Scalar's API reference) says of a document, without a browser: the page loads a document
 * into Scalar's workspace store, which checks it against its own schema of OpenAPI 3.1 and logs each mismatch with
 * console.warn ("document validation errors: " then the list). The store is the one @scalar/api-reference depends
 * on, resolved from that package, so the check follows the version the page bundles.
 */
type ValidationError = { message: string; path: string };
type Store = { addDocument(input: { name: string; document: Record<string, unknown> }): Promise<boolean> };

const reference = dirname(Bun.resolveSync("@scalar/api-reference/package.json", import.meta.dir));
const storeModule = Bun.resolveSync("@scalar/workspace-store/client", reference);

/** The validation errors Scalar logs for the document, plus anything else it warns or errs about while loading. */
export async function scalarComplaints(document: unknown): Promise<string[]> {
  const { createWorkspaceStore } = (await import(storeModule)) as { createWorkspaceStore(): Store };
  const complaints: string[] = [];
  const saved = { warn: console.warn, error: console.error, info: console.info, log: console.log };
  const record = (...args: unknown[]) => {
    for (const arg of args) {
      if (Array.isArray(arg)) for (const e of arg as ValidationError[]) complaints.push(`${e.message} @ ${e.path}`);
      else if (arg !== "document validation errors: ") complaints.push(String(arg));
    }
  };
  console.warn = record;
  console.error = record;
  // Its loader times each step with console.info/log: noise here.
  console.info = () => {};
  console.log = () => {};
  try {
    const loaded = await createWorkspaceStore().addDocument({
      name: "api",
      document: JSON.parse(JSON.stringify(document)),
    });
    if (!loaded) complaints.push("the document was not loaded");
  } finally {
    Object.assign(console, saved);
  }
  return complaints;
}
