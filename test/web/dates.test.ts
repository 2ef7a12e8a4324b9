// One date format per locale (D27): a venue day and an instant are written alike in the venue's locale — checked against
// hand-written dates, not against Intl's own formatting.
import { describe, expect, it } from 'vitest';
import { day, instantOf, localInput, when } from '../../web/src/dates.js';

const dublin = { locale: 'en-IE', timezone: 'Europe/Dublin' };
const berlin = { locale: 'de-DE', timezone: 'Europe/Berlin' };

describe('dates in the dashboard', () => {
  it('writes a venue day as the same locale writes the date of an instant', () => {
    expect(day('2026-11-22', dublin)).toBe('22 Nov 2026');
    expect(day('2026-11-22', berlin)).toBe('22.11.2026');
    expect(when('2026-11-22T10:00:00Z', dublin).startsWith('22 Nov 2026')).toBe(true);
    expect(when('2026-11-22T10:00:00Z', berlin).startsWith('22.11.2026')).toBe(true);
  });

  it("keeps a day the day it is, whatever the browser's time zone; short for a chart's axis", () => {
    expect(day('2026-03-29', { locale: 'en-IE' })).toBe('29 Mar 2026');
    expect(day('2026-11-01', { locale: 'en-IE' }, true)).toBe('1 Nov');
    expect(day('2026-11-01', { locale: 'de-DE' }, true)).toBe('1. Nov.');
  });
});

describe('wall-clock times typed for a venue', () => {
  it.each([
    ['2026-11-22T11:00', 'Europe/Dublin', '2026-11-22T11:00:00.000Z'], // winter: UTC+0
    ['2026-07-01T18:30', 'Europe/Dublin', '2026-07-01T17:30:00.000Z'], // summer: UTC+1
    ['2026-11-22T11:00', 'Pacific/Auckland', '2026-11-21T22:00:00.000Z'], // UTC+13 in November
    ['2026-11-22T09:15', 'America/New_York', '2026-11-22T14:15:00.000Z'], // UTC−5
    ['2026-03-29T01:30', 'Europe/Dublin', '2026-03-29T01:30:00.000Z'], // skipped by the clock change: read before it (UTC+0)
    ['2026-10-25T01:30', 'Europe/Dublin', '2026-10-25T00:30:00.000Z'], // repeated: the first 01:30 (UTC+1)
  ])('%s in %s is %s', (local, timezone, iso) => {
    expect(instantOf(local, timezone)).toBe(iso);
  });

  it.each([
    ['2026-11-22T11:00:00Z', 'Europe/Dublin', '2026-11-22T11:00'],
    ['2026-07-01T17:30:00Z', 'Europe/Dublin', '2026-07-01T18:30'],
    ['2026-11-21T22:00:00Z', 'Pacific/Auckland', '2026-11-22T11:00'],
    ['2026-11-22T14:15:45Z', 'America/New_York', '2026-11-22T09:15'],
  ])('%s shows as %s in %s', (iso, timezone, local) => {
    expect(localInput(iso, timezone)).toBe(local);
  });
});

describe('before 1970', () => {
  it('keeps the minute of an instant with milliseconds', () => {
    expect(localInput('1969-07-20T20:17:00.500Z', 'UTC')).toBe('1969-07-20T20:17');
  });
});
