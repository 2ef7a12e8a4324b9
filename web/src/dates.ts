// Dates as the venue writes them (D27): one format per locale, an instant in the venue's time zone and a calendar day
// as the same locale writes a date.

interface Locale {
  locale: string;
}

/** An instant (ISO) as date and time in the venue's locale and time zone; '—' for none. */
export function when(iso: string | null | undefined, venue?: Locale & { timezone?: string }): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(venue?.locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: venue?.timezone }).format(new Date(iso));
}

/**
 * A calendar day ('YYYY-MM-DD': a venue day, a report's day) in the venue's locale, as `when` writes dates.
 * `short`: month and day only (a chart's axis).
 */
export function day(isoDay: string, venue: Locale, short = false): string {
  const options: Intl.DateTimeFormatOptions = short ? { month: 'short', day: 'numeric' } : { dateStyle: 'medium' };
  return new Intl.DateTimeFormat(venue.locale, { ...options, timeZone: 'UTC' }).format(new Date(`${isoDay}T00:00:00Z`));
}
