import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { Middleware } from "openapi-fetch";

/** The parts of an OpenAPI 3.1 document these checks read. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object>; responses: Record<string, ResponseObject> };
  [key: string]: unknown;
}
interface Operation {
  operationId: string;
  responses: Record<string, ResponseObject | { $ref: string }>;
}
interface ResponseObject {
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, { schema: object }>;
}

/** One answer the scenario got, as it came over the wire. */
export interface Answer {
  method: string;
  schemaPath: string;
  status: number;
  headers: Headers;
  body: unknown;
}

/** An openapi-fetch middleware that keeps every answer, for checking once the scenario is done. */
export function recorder(): { middleware: Middleware; answers: Answer[] } {
  const answers: Answer[] = [];
  const middleware: Middleware = {
    async onResponse({ request, response, schemaPath }) {
      const text = await response.clone().text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* kept as text: the check reports it */
      }
      answers.push({ method: request.method, schemaPath, status: response.status, headers: response.headers, body });
    },
  };
  return { middleware, answers };
}

/** Every operation of the document, by `METHOD /path/{template}`. */
export function operationsOf(doc: OpenApiDocument): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) out.set(`${method.toUpperCase()} ${path}`, op);
  }
  return out;
}

/**
 * Checks answers against the document: the status is one the operation declares, its required headers are
 * there, and the JSON body matches the declared schema (formats included).
 */
export function answerChecker(doc: OpenApiDocument): (answer: Answer) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const operations = operationsOf(doc);
  const compiled = new Map<object, ValidateFunction>();
  // A response schema refers to `#/components/schemas/…`: compile it with the components beside it.
  const validatorOf = (schema: object) => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile({ ...schema, components: doc.components })));
    return validate;
  };
  return (answer) => {
    const where = `${answer.method} ${answer.schemaPath} → ${answer.status}`;
    const op = operations.get(`${answer.method} ${answer.schemaPath}`);
    if (!op) return [`${where}: not an operation of the document`];
    let declared = op.responses[answer.status];
    if (declared && "$ref" in declared) declared = doc.components.responses[declared.$ref.split("/").pop()!];
    if (!declared) return [`${where}: a status the operation does not declare`];
    const problems: string[] = [];
    for (const [name, h] of Object.entries(declared.headers ?? {})) {
      if (h.required && !answer.headers.has(name)) problems.push(`${where}: no ${name} header`);
    }
    const schema = declared.content?.["application/json"]?.schema;
    if (!schema) return [...problems, `${where}: no JSON body declared`];
    const validate = validatorOf(schema);
    if (!validate(answer.body)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`).slice(0, 5);
      problems.push(`${where}: body does not match the document: ${errors.join("; ")}`);
    }
    return problems;
  };
}
