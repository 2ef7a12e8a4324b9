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

/** How far ahead of UTC `timezone` is at `ms`, in milliseconds. */
function offsetAt(ms: number, timezone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    .formatToParts(new Date(ms))
    .reduce<Record<string, number>>((acc, p) => (p.type === 'literal' ? acc : { ...acc, [p.type]: Number(p.value) }), {});
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) - Math.floor(ms / 1000) * 1000;
}

/**
 * A wall-clock time typed for the venue ('YYYY-MM-DDTHH:MM', a datetime-local input's value) as the instant it is
 * there (ISO). A time a clock change skips is read with the offset before it; one it repeats, the first of the two.
 */
export function instantOf(local: string, timezone: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) throw new Error(`not a local date and time: ${local}`);
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  // The offsets a day either side (no zone changes twice in a day): the time is one of the two, both, or neither.
  const [before, after] = [offsetAt(wall - 86_400_000, timezone), offsetAt(wall + 86_400_000, timezone)];
  const [early, late] = [wall - before, wall - after];
  const lateFits = offsetAt(late, timezone) === after;
  return new Date(offsetAt(early, timezone) === before || !lateFits ? early : late).toISOString();
}

/** An instant (ISO) as the venue's wall clock shows it, for a datetime-local input ('YYYY-MM-DDTHH:MM'); '' for none. */
export function localInput(iso: string | null | undefined, timezone: string): string {
  if (!iso) return '';
  const ms = new Date(iso).getTime();
  return new Date(ms + offsetAt(ms, timezone)).toISOString().slice(0, 16);
}
