// Timestamps as the API shows them: ISO 8601, milliseconds, explicit UTC offset (D3).
export function formatTimestamp(value: Date | string): string {
  return new Date(value).toISOString().replace('Z', '+00:00');
}

export function formatNullableTimestamp(value: Date | string | null): string | null {
  return value === null ? null : formatTimestamp(value);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date of `at` in a time zone, 'YYYY-MM-DD': a venue's day, which per-day limits count by. */
export function venueDay(at: Date, timezone: string): string {
  let format = dayFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timezone, format);
  }
  return format.format(at);
}
