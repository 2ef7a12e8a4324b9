// The dashboard's members directory (D27): the same search as GET /v1/members, and its CSV export — the members
// file the import reads, with the page's search, filters and sort, audited with the filters (never the term).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as accounts from '../../src/modules/accounts/service.js';
import { importFile } from '../../src/modules/members/bulk-import-file.js';
import { systemClock } from '../../src/shared/clock.js';
import { useTestApp } from '../support/app.js';
import { client, expectError } from '../support/http.js';
import { signedUpOwner } from './support.js';

const t = useTestApp();

async function ownerWithMembers() {
  const { c, venue } = await signedUpOwner(t, 'Directory Bistro');
  const till = client(t, (await c.post('/dashboard/api/api-keys', { name: 'Till', livemode: true, scopes: [] })).body.secret as string);
  for (const m of [
    { card_number: 'DIR-1', name: 'Zoë Murphy', phone: '087 111 2222', email: 'zoe@example.ie' },
    { card_number: 'DIR-2', name: 'Aoife Kelly' },
    { card_number: 'DIR-3', name: '=Sum(A1)' },
  ]) {
    const res = await till.post('/api/v1/members', { consent: true, ...m });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  const paid = await till.post('/api/v1/checks', { external_id: 'D-1', card_number: 'DIR-2', line_items: [{ name: 'Lunch', quantity: 1, unit_price: 2_000 }] });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  return { c, venue, till };
}

describe('the members directory in the dashboard', () => {
  it('searches like the API: a part of a name without accents, the sort, and the page', async () => {
    const { c } = await ownerWithMembers();
    const found = await c.get('/dashboard/api/members?q=zoe%20mur');
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ url: '/dashboard/api/members', has_more: false });
    expect(found.body.data.map((m: { name: string }) => m.name)).toEqual(['Zoë Murphy']);
    const bySpend = await c.get('/dashboard/api/members?sort=spend&limit=1');
    expect(bySpend.body).toMatchObject({ has_more: true, data: [{ name: 'Aoife Kelly', total_spend: 2_000 }] });
    expect(bySpend.body.data[0].last_visit_at).not.toBeNull();
    expect(expectError(await c.get(`/dashboard/api/members?q=${'x'.repeat(201)}`), 400, 'parameter_invalid').param).toBe('q');
  });

  it('exports the filtered, sorted directory as a members file, formula-like names defused, and audits the filters without the term', async () => {
    const { c } = await ownerWithMembers();
    const res = await c.get('/dashboard/api/members/export.csv?sort=name');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="members-\d{4}-\d{2}-\d{2}\.csv"$/);
    // Aoife's check: 2,000 spent, 1 visit, 5 % back (the sign-up's program) = 100. Text a spreadsheet would run
    // (a formula, a phone's +) is defused with an apostrophe, which the import takes off again.
    const file = String(res.body);
    expect(file.replace(/,\d{4}-\d{2}-\d{2},/g, ',DAY,').split('\r\n')).toEqual([
      'card_number,phone,email,name,consent_date,opening_balance,total_spend,visits,stamps',
      "DIR-3,,,'=Sum(A1),DAY,0,0,0,0",
      'DIR-2,,,Aoife Kelly,DAY,100,2000,1,0',
      "DIR-1,'+353871112222,zoe@example.ie,Zoë Murphy,DAY,0,0,0,0",
      '',
    ]);
    // The file is one the import reads: brought into another chain, that chain exports the same file.
    const other = await signedUpOwner(t, 'Second Bistro');
    const venue = await accounts.findVenue(t.db, other.venue.id);
    const path = join(mkdtempSync(join(tmpdir(), 'members-export-')), 'members.csv');
    writeFileSync(path, file);
    const target = { chainId: venue!.chainId, venueId: venue!.id, livemode: true, country: venue!.country, reference: 'export' };
    // The system's clock: enrolment stamps consent with the database's time, which the test's clock is behind.
    const imported = await importFile(t.db, target, path, { clock: systemClock, report: `${path}.report.csv` });
    expect(imported).toMatchObject({ imported: 3, failed: 0 });
    expect(String((await other.c.get('/dashboard/api/members/export.csv?sort=name')).body)).toBe(file);
    const searched = String((await c.get('/dashboard/api/members/export.csv?q=kelly')).body).trimEnd().split('\r\n');
    expect(searched).toHaveLength(2);
    expect(searched[1]).toMatch(/^DIR-2,/);
    expect(expectError(await c.get('/dashboard/api/members/export.csv?sort=age'), 400, 'parameter_invalid').param).toBe('sort');
    const log = await c.get('/dashboard/api/audit-events?action=members.exported');
    expect(log.body.data).toHaveLength(2);
    expect(log.body.data[0].changes).toEqual({ filters: [null, { sort: 'newest', searched: true }] });
    expect(log.body.data[1].changes).toEqual({ filters: [null, { sort: 'name', searched: false }] });
    expect(JSON.stringify(log.body.data)).not.toContain('kelly');
  });
});
