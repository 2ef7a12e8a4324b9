// One date format per locale (D27): a venue day and an instant are written alike in the venue's locale — checked against
// hand-written dates, not against Intl's own formatting.
import { describe, expect, it } from 'vitest';
import { day, when } from '../../web/src/dates.js';

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
