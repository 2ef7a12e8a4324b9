// Writes the public OpenAPI document and the types generated from it into the TypeScript client (clients/typescript),
// without a running server or a database: `node --import tsx scripts/export-openapi.ts` (or `npm run generate` there).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { AppDeps } from '../src/http/context.js';

export const CLIENT_DIR = path.resolve(import.meta.dirname, '../clients/typescript');
export const DOCUMENT_FILE = path.join(CLIENT_DIR, 'openapi.json');
export const TYPES_FILE = path.join(CLIENT_DIR, 'src/schema.ts');
/** The base URL the committed document names; clients pass their own, so the document does not depend on the machine. */
export const DOCUMENT_BASE_URL = 'http://localhost:3000';

const TYPES_HEADER = '// Generated from openapi.json by scripts/export-openapi.ts (openapi-typescript): do not edit by hand.\n';

/** The document as committed: two-space JSON with a final newline. */
export function documentText(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

export async function typesText(document: unknown): Promise<string> {
  return TYPES_HEADER + astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
}

/** The document /api/v1/openapi.json serves. Building the app opens nothing (src/app.ts), so only config is needed. */
export async function servedDocument(): Promise<unknown> {
  const config = loadConfig({ API_KEY_PEPPER: 'export-openapi-0123456789abcdef0123456789', PUBLIC_BASE_URL: DOCUMENT_BASE_URL });
  const app = await buildApp({ config } as AppDeps);
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const document = await servedDocument();
  writeFileSync(DOCUMENT_FILE, documentText(document));
  writeFileSync(TYPES_FILE, await typesText(document));
  process.stdout.write(`Wrote ${path.relative(process.cwd(), DOCUMENT_FILE)} and ${path.relative(process.cwd(), TYPES_FILE)}.\n`);
}
