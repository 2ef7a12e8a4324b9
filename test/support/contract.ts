// Contract tests: every response a test receives from the app is checked against the OpenAPI document that documents it.
//
// startTestApp wraps `app.inject` with `installContractChecks`, so every request a test sends in process (request,
// client, dashboardClient, and direct t.app.inject calls) is checked, and a mismatch throws from the call: the test
// that received the response fails, with the method, path, status and the schema error in the message.
//
// The documents are the ones the app itself serves (GET /api/v1/openapi.json and GET /dashboard/api/openapi.json), so
// what is checked is exactly what clients are told. Bodies are validated by Ajv (JSON Schema 2020-12, the dialect of
// OpenAPI 3.1); each document is compiled once per test process (keyed by a hash of its text) and each response schema
// once, when first needed.
import { createHash } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { InjectOptions, Response as InjectResponse } from 'light-my-request';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The documents the app serves; each response is checked against the one whose paths it falls under. */
export const DOCUMENT_URLS = ['/api/v1/openapi.json', '/dashboard/api/openapi.json', '/api/pos/v1/openapi.json'] as const;

/**
 * Routes inside a documented namespace that are left out of the documents on purpose: their 2xx answers are not
 * checked (their errors still must be the envelope).
 */
const UNDOCUMENTED_BY_DESIGN = new Set(DOCUMENT_URLS.map((url) => `GET ${url}`));

/**
 * Known mismatches in modules being rewritten, made pending until their owner fixes the document or the code.
 * Each entry is one exact case: operation, status, and a fragment of the mismatch message.
 * TODO(issue 13): remove each entry once its module's schema or code is fixed; the list should end up empty.
 */
export const CONTRACT_PENDING: ReadonlyArray<{ operation: string; status: number; mismatch: string; why: string }> = [];

interface Operation {
  method: string;
  template: string;
  /** The path as the app routes it: the document's server path prefix plus the template. */
  regex: RegExp;
  /** Literal segments first, as the router prefers them: `/v1/members/lookup` before `/v1/members/{id}`. */
  specificity: number[];
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

interface CompiledDocument {
  title: string;
  operations: Operation[];
  /** Path prefixes that this document speaks for (e.g. `/api/v1`, `/api/public/v1`, `/dashboard/api`). */
  namespaces: string[];
  errorSchema: object;
  /** The document's components: its schemas refer to them (`#/components/schemas/Member`). */
  components: object;
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}

const compiled = new Map<string, CompiledDocument>();

/** Answers checked in this test process, for the figures in docs/reliability.md (see CONTRACT_STATS_FILE in app.ts). */
export const contractStats = { checked: 0, againstOperation: 0, pending: 0 };

function newAjv(): Ajv2020 {
  // Not the app's own Ajv (src/http/validation.ts): that one coerces and fills defaults, which must not happen here.
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));
  return ajv.addFormat('binary', true).addFormat('byte', true);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compileDocument(doc: any): CompiledDocument {
  const text = JSON.stringify(doc);
  const hash = createHash('sha256').update(text).digest('hex');
  const cached = compiled.get(hash);
  if (cached) return cached;
  const server = doc.servers?.[0]?.url ?? '';
  const prefix = server ? new URL(server, 'http://localhost').pathname.replace(/\/$/, '') : '';
  const operations: Operation[] = [];
  const namespaces = new Set<string>();
  let errorSchema: object | undefined;
  for (const [template, item] of Object.entries<any>(doc.paths ?? {})) {
    const segments = template.split('/').slice(1);
    // The namespace runs to the version segment (`/api/v1`, `/api/public/v1`) or the `api` one (`/dashboard/api`).
    const end = segments.findIndex((s) => /^(v\d+|api)$/.test(s));
    namespaces.add(prefix + '/' + segments.slice(0, end + 1).join('/'));
    const regex = new RegExp(
      '^' + escapeRegex(prefix) + segments.map((s) => '/' + (/^\{.+\}$/.test(s) ? '[^/]+' : escapeRegex(s))).join('') + '$',
    );
    const specificity = segments.map((s) => (/^\{.+\}$/.test(s) ? 0 : 1));
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'put', 'post', 'patch', 'delete', 'head', 'options'].includes(method)) continue;
      operations.push({ method: method.toUpperCase(), template, regex, specificity, responses: op.responses ?? {} });
      errorSchema ??= op.responses?.['4XX']?.content?.['application/json']?.schema;
    }
  }
  operations.sort((a, b) => {
    for (let i = 0; i < Math.max(a.specificity.length, b.specificity.length); i++) {
      const d = (b.specificity[i] ?? -1) - (a.specificity[i] ?? -1);
      if (d) return d;
    }
    return 0;
  });
  const result: CompiledDocument = {
    title: doc.info?.title ?? server,
    operations,
    namespaces: [...namespaces],
    errorSchema: errorSchema ?? doc.components?.schemas?.Error ?? { type: 'object' },
    components: doc.components ?? {},
    ajv: newAjv(),
    validators: new Map(),
  };
  compiled.set(hash, result);
  return result;
}

function validatorFor(document: CompiledDocument, id: string, schema: object): ValidateFunction {
  let validate = document.validators.get(id);
  if (!validate) {
    // Compiled with the components beside it, so `#/components/schemas/…` resolves as in the document.
    validate = document.ajv.compile({ ...schema, components: document.components });
    document.validators.set(id, validate);
  }
  return validate;
}

export interface ReceivedResponse {
  method: string;
  /** Path and query as sent. */
  url: string;
  status: number;
  headers: Record<string, unknown>;
  /** The body as text (UTF-8). */
  body: string;
  /** The path reached the server as written (a raw socket), not resolved as inject and browsers resolve it. */
  asSent?: boolean;
}

/** What is wrong with the response against the documents, or undefined when it conforms (or is not theirs). */
export function contractMismatch(documents: CompiledDocument[], res: ReceivedResponse): string | undefined {
  const method = res.method.toUpperCase();
  // The path as the server sees it: inject, like a browser, resolves dot segments (`/dashboard/api/..` is `/dashboard/`).
  const raw = res.url.split('?')[0]!.split('#')[0]!;
  const path = res.asSent ? raw : (raw.startsWith('//') ? new URL(`http://localhost${raw}`) : new URL(raw, 'http://localhost')).pathname;
  const mediaType = String(res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const where = `${method} ${path} → ${res.status}`;
  for (const document of documents) {
    const operation = document.operations.find((o) => o.method === method && o.regex.test(path));
    if (!operation) {
      if (!document.namespaces.some((ns) => path === ns || path.startsWith(ns + '/'))) continue;
      // No operation: an unknown route, a method the path does not have, or a route left out of the document.
      if (res.status < 400) {
        if (UNDOCUMENTED_BY_DESIGN.has(`${method} ${path}`)) return undefined;
        return `${where}: no operation in ${document.title} documents ${method} ${path}`;
      }
      const problem = bodyMismatch(document, 'error envelope', document.errorSchema, 'application/json', mediaType, res.body);
      return problem && `${where} (no documented operation): ${problem}`;
    }
    const label = `${operation.method} ${operation.template}`;
    contractStats.againstOperation++;
    const message = operationMismatch(document, operation, label, where, mediaType, res);
    const pending = message && CONTRACT_PENDING.find((p) => p.operation === label && p.status === res.status && message.includes(p.mismatch));
    if (pending) contractStats.pending++;
    return pending ? undefined : message;
  }
  return undefined;
}

function operationMismatch(document: CompiledDocument, operation: Operation, label: string, where: string, mediaType: string, res: ReceivedResponse) {
  const statusKey = [String(res.status), `${String(res.status)[0]}XX`, `${String(res.status)[0]}xx`, 'default'].find(
    (k) => operation.responses[k],
  );
  if (!statusKey) {
    return `${where}: status ${res.status} is not documented for ${label} (documented: ${Object.keys(operation.responses).join(', ')})`;
  }
  const response = operation.responses[statusKey]!;
  const content = response.content;
  if (!content || Object.keys(content).length === 0) {
    return res.body === '' ? undefined : `${where}: ${label} documents no body for ${statusKey}, got ${mediaType || 'no content type'}`;
  }
  const documented = Object.keys(content).find((type) => mediaTypeMatches(type, mediaType));
  if (!documented) {
    return `${where}: content type ${mediaType || '(none)'} is not documented for ${label} ${statusKey} (documented: ${Object.keys(content).join(', ')})`;
  }
  const schema = content[documented]!.schema;
  if (!schema) return undefined;
  const id = `${label} ${statusKey} ${documented}`;
  const problem = bodyMismatch(document, id, schema, documented, mediaType, res.body);
  return problem && `${where}: body does not match ${label} ${statusKey} ${documented}: ${problem}`;
}

function mediaTypeMatches(documented: string, actual: string): boolean {
  const d = documented.toLowerCase();
  if (d === '*/*' || d === actual) return true;
  return d.endsWith('/*') && actual.startsWith(d.slice(0, -1));
}

function bodyMismatch(document: CompiledDocument, id: string, schema: object, documented: string, actual: string, body: string) {
  if (!mediaTypeMatches(documented, actual)) return `content type ${actual || '(none)'} is not ${documented}`;
  let value: unknown = body;
  if (/[/+]json$/.test(actual)) {
    try {
      value = JSON.parse(body);
    } catch {
      return `the body is not JSON: ${JSON.stringify(body.slice(0, 120))}`;
    }
  }
  const validate = validatorFor(document, id, schema);
  if (validate(value)) return undefined;
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`)
    .join('; ');
}

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

type Injectable = { inject: (...args: any[]) => any };

/** The documents an app serves, fetched once per app through its unchecked inject. */
const documentsOf = new WeakMap<object, Promise<CompiledDocument[]>>();

/**
 * Wraps `app.inject` so every response is checked against the app's OpenAPI documents; a mismatch throws a
 * ContractViolation from the call. Only the promise form is checked (the callback and chain forms pass through).
 */
export function installContractChecks(app: Injectable): void {
  const inject = app.inject.bind(app) as (opts?: InjectOptions | string) => Promise<InjectResponse>;
  const documents = () => {
    let loaded = documentsOf.get(app);
    if (!loaded) {
      loaded = Promise.all(
        DOCUMENT_URLS.map(async (url) => {
          const res = await inject({ method: 'GET', url });
          // An app without that API (404) has nothing there to check; any other failure must not pass unnoticed.
          if (res.statusCode === 404) return undefined;
          if (res.statusCode !== 200) throw new ContractViolation(`GET ${url} answered ${res.statusCode}; the contract checks need the document`);
          return compileDocument(res.json());
        }),
      ).then((documents) => documents.filter((d) => d !== undefined));
      documentsOf.set(app, loaded);
    }
    return loaded;
  };
  app.inject = (opts?: InjectOptions | string, callback?: unknown) => {
    if (opts === undefined || callback !== undefined) return (inject as any)(opts, callback);
    return (async () => {
      const res = await inject(opts);
      contractStats.checked++;
      const options = typeof opts === 'string' ? { url: opts } : opts;
      const url = typeof options.url === 'string' ? options.url : typeof options.path === 'string' ? options.path : (options.url?.pathname ?? options.path?.pathname ?? '/');
      const mismatch = contractMismatch(await documents(), {
        method: options.method ?? 'GET',
        url,
        status: res.statusCode,
        headers: res.headers,
        body: res.body,
      });
      if (mismatch) throw new ContractViolation(`response does not match the OpenAPI document: ${mismatch}`);
      return res;
    })();
  };
}
