// The TypeScript client (clients/typescript) is built from a committed copy of the public OpenAPI document and the
// types generated from it; this fails while either differs from what the server serves, so they cannot drift.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_FILE, TYPES_FILE, documentText, servedDocument, typesText } from '../../scripts/export-openapi.js';
import { useTestApp } from '../support/app.js';
import { client } from '../support/http.js';

const t = useTestApp();
const REGENERATE = 'stale: run `npm run generate` in clients/typescript (scripts/export-openapi.ts) and commit the result';

/** The first line where two texts differ, to point at the stale part of a half-megabyte file. */
function firstDifference(actual: string, expected: string): string | undefined {
  const a = actual.split('\n');
  const e = expected.split('\n');
  const line = a.findIndex((text, i) => text !== e[i]);
  const at = line === -1 ? (a.length === e.length ? -1 : Math.min(a.length, e.length)) : line;
  return at === -1 ? undefined : `line ${at + 1}: committed ${JSON.stringify(a[at])}, served ${JSON.stringify(e[at])}`;
}

describe('the TypeScript client', () => {
  it('has the document the server serves at /api/v1/openapi.json, committed', async () => {
    const res = await client(t, null).get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const served = documentText(res.body);
    expect(firstDifference(readFileSync(DOCUMENT_FILE, 'utf8'), served), `clients/typescript/openapi.json is ${REGENERATE}`).toBeUndefined();
    // The export script builds the app without a database or a listener: it must produce that same document.
    expect(firstDifference(documentText(await servedDocument()), served), 'scripts/export-openapi.ts produces another document than the server').toBeUndefined();
  });

  it('has the types openapi-typescript generates from that document, committed', async () => {
    const document: unknown = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8'));
    expect(firstDifference(readFileSync(TYPES_FILE, 'utf8'), await typesText(document)), `clients/typescript/src/schema.ts is ${REGENERATE}`).toBeUndefined();
  }, 60_000);
});
