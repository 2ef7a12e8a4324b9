// The TypeScript client (clients/typescript) is built from a committed copy of the public OpenAPI document and the
// types generated from it; this fails while either differs from what the server serves, so they cannot drift. A client
// generated from them (openapi-fetch) sends what the API takes, a member import's file included.
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import type { paths } from '../../clients/typescript/src/schema.js';
import { DOCUMENT_FILE, TYPES_FILE, documentText, servedDocument, typesText } from '../../scripts/export-openapi.js';
import * as imports from '../../src/modules/imports/service.js';
import { useTestApp } from '../support/app.js';
import { createProgram, venueWithKey } from '../support/factories.js';
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

  it('lets a client generated from them send a member import file over HTTP (the file is the declared body), and the import happens', async () => {
    const document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8'));
    const upload = document.paths['/v1/members/imports'].post.requestBody;
    expect(Object.keys(upload?.content ?? {}), 'the media types POST /v1/members/imports takes').toEqual(['text/csv', 'application/x-ndjson']);
    for (const media of Object.values<{ schema: object }>(upload.content)) expect(media.schema).toMatchObject({ type: 'string' });

    const { venue, secret } = await venueWithKey(t);
    await createProgram(t, venue, 'cashback');
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // openapi-fetch on the committed types: npm run typecheck refuses this body unless the document declares it.
    const api = createClient<paths>({ baseUrl: `${baseUrl}/api`, headers: { authorization: `Bearer ${secret}` } });
    const file = 'card_number,consent_date,opening_balance\nGEN-1,2024-06-01,250\nGEN-2,2024-06-02,0\n';
    const sent = await api.POST('/v1/members/imports', { body: file, headers: { 'content-type': 'text/csv' }, bodySerializer: (csv) => csv });
    expect(sent.response.status, JSON.stringify(sent.error)).toBe(202);
    expect(sent.data).toMatchObject({ status: 'pending', format: 'csv', total_lines: 2 });

    while (await imports.runNextImport(t.db, t.clock, 'a0000000-0000-7000-8000-0000000000aa'));
    const done = await api.GET('/v1/members/imports/{id}', { params: { path: { id: sent.data!.id } } });
    expect(done.data).toMatchObject({ status: 'succeeded', imported: 2, failed: 0 });
    const member = await api.GET('/v1/members/lookup', { params: { query: { card_number: 'GEN-1' } } });
    expect(member.data).toMatchObject({ card_numbers: ['GEN-1'], balance: 250 });
  });
});
