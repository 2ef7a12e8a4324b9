// The one time-zone helper (src/shared/time.ts), against figures worked out by hand from the zones' rules: the UK and
// Ireland change at 01:00 UTC on the last Sundays of March and October (29 March and 25 October 2026), New York at
// 02:00 local on the second Sunday of March and the first of November (8 March and 1 November 2026).
import { describe, expect, it } from 'vitest';
import { addDays, isTimeZone, startOfVenueDay, venueDay, wallClock } from '../../src/shared/time.js';

describe('the wall clock of an instant in a zone', () => {
  it.each([
    // London, the hour before and the first moment of summer time: 00:59:59 GMT, then 02:00 BST (01:xx never shows).
    ['2026-03-29T00:59:59Z', 'Europe/London', { day: '2026-03-29', weekday: 7, hour: 0, minute: 59, second: 59 }],
    ['2026-03-29T01:00:00Z', 'Europe/London', { day: '2026-03-29', weekday: 7, hour: 2, minute: 0, second: 0 }],
    // London in October shows 01:30 twice: first BST (UTC+1), an hour later GMT.
    ['2026-10-25T00:30:00Z', 'Europe/London', { day: '2026-10-25', weekday: 7, hour: 1, minute: 30, second: 0 }],
    ['2026-10-25T01:30:00Z', 'Europe/London', { day: '2026-10-25', weekday: 7, hour: 1, minute: 30, second: 0 }],
    // Dublin's summer is its standard time in the zone data (a negative saving in winter); the clock is London's.
    ['2026-07-01T23:30:00Z', 'Europe/Dublin', { day: '2026-07-02', weekday: 4, hour: 0, minute: 30, second: 0 }],
    // New York: 01:59 EST is followed by 03:00 EDT; five hours behind UTC, the evening before is still Saturday.
    ['2026-03-08T06:59:00Z', 'America/New_York', { day: '2026-03-08', weekday: 7, hour: 1, minute: 59, second: 0 }],
    ['2026-03-08T07:00:00Z', 'America/New_York', { day: '2026-03-08', weekday: 7, hour: 3, minute: 0, second: 0 }],
    ['2026-03-08T04:59:59Z', 'America/New_York', { day: '2026-03-07', weekday: 6, hour: 23, minute: 59, second: 59 }],
    // Midnight is hour 0, not 24.
    ['2026-11-02T05:00:00Z', 'America/New_York', { day: '2026-11-02', weekday: 1, hour: 0, minute: 0, second: 0 }],
  ] as const)('%s in %s', (iso, zone, clock) => {
    expect(wallClock(new Date(iso), zone)).toEqual(clock);
    expect(venueDay(new Date(iso), zone)).toBe(clock.day);
  });
});

describe('the start of a venue day', () => {
  it.each([
    // London: the change day starts in GMT, the day after in BST (an hour before UTC midnight); back in October.
    ['2026-03-29', 'Europe/London', '2026-03-29T00:00:00.000Z'],
    ['2026-03-30', 'Europe/London', '2026-03-29T23:00:00.000Z'],
    ['2026-10-25', 'Europe/London', '2026-10-24T23:00:00.000Z'],
    ['2026-10-26', 'Europe/London', '2026-10-26T00:00:00.000Z'],
    ['2026-07-02', 'Europe/Dublin', '2026-07-01T23:00:00.000Z'],
    // New York: EST (UTC−5) at the change day's midnight, EDT (UTC−4) the day after; the reverse in November.
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'],
    ['2026-03-09', 'America/New_York', '2026-03-09T04:00:00.000Z'],
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00.000Z'],
    ['2026-11-02', 'America/New_York', '2026-11-02T05:00:00.000Z'],
    // Berlin changes at 01:00 UTC too (02:00 CET): the change day starts in CET, the next in CEST.
    ['2027-03-28', 'Europe/Berlin', '2027-03-27T23:00:00.000Z'],
    ['2027-03-29', 'Europe/Berlin', '2027-03-28T22:00:00.000Z'],
    ['2027-10-31', 'Europe/Berlin', '2027-10-30T22:00:00.000Z'],
    ['2027-11-01', 'Europe/Berlin', '2027-10-31T23:00:00.000Z'],
    ['2026-12-01', 'Pacific/Auckland', '2026-11-30T11:00:00.000Z'],
    // Santiago moves its clocks at midnight: 2026-09-06 has no 00:00, the day starts at 01:00 local (04:00 UTC).
    ['2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z'],
  ] as const)('%s in %s', (day, zone, iso) => {
    expect(startOfVenueDay(day, zone).toISOString()).toBe(iso);
  });

  it('of the day an instant falls on counts the hour a change skipped: noon BST on 29 March began 11 hours earlier', () => {
    const noon = new Date('2026-03-29T11:00:00Z');
    expect(startOfVenueDay(venueDay(noon, 'Europe/London'), 'Europe/London').toISOString()).toBe('2026-03-29T00:00:00.000Z');
  });
});

describe('calendar days and zone names', () => {
  it('adds days by the calendar alone', () => {
    expect([addDays('2026-02-28', 1), addDays('2028-02-28', 1), addDays('2026-01-01', -1), addDays('2026-03-29', 1)]).toEqual([
      '2026-03-01',
      '2028-02-29',
      '2025-12-31',
      '2026-03-30',
    ]);
  });

  it('takes any zone the runtime knows, old or new name, and nothing else', () => {
    expect(['Asia/Kolkata', 'Asia/Calcutta', 'Europe/Dublin', 'UTC', 'Mars/Olympus', ''].map(isTimeZone)).toEqual([true, true, true, true, false, false]);
  });
});
