// Timestamps as the API shows them: ISO 8601, milliseconds, explicit UTC offset (D3).
export function formatTimestamp(value: Date | string): string {
  return new Date(value).toISOString().replace('Z', '+00:00');
}

export function formatNullableTimestamp(value: Date | string | null): string | null {
  return value === null ? null : formatTimestamp(value);
}

/** Whether `day` is a real calendar date written 'YYYY-MM-DD' (Date.parse would roll 2023-02-29 over to 1 March). */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const at = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day;
}

// A request asks for the day of the same moment several times (the cap, the lots, the levels): the last answer is kept.
const dayFormats = new Map<string, { format: Intl.DateTimeFormat; at: number; day: string }>();

/** The calendar date of `at` in a time zone, 'YYYY-MM-DD': a venue's day, which per-day limits count by. */
export function venueDay(at: Date, timezone: string): string {
  let entry = dayFormats.get(timezone);
  if (!entry) {
    entry = { format: new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }), at: NaN, day: '' };
    dayFormats.set(timezone, entry);
  }
  const ms = at.getTime();
  if (ms !== entry.at) {
    entry.day = entry.format.format(at);
    entry.at = ms;
  }
  return entry.day;
}
