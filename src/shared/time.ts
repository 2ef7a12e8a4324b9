// Time as the API writes it (D3) and the one place that does time-zone arithmetic: a venue's wall clock, its days,
// and when they start.
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

/** 'YYYY-MM-DD' plus n calendar days (n may be negative), by the calendar alone: no time zone involved. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/**
 * Any IANA zone the runtime can use. Intl.supportedValuesOf lists only canonical names, and on Node 20 those are
 * the old ones (Asia/Calcutta, not Asia/Kolkata), so a name is tried rather than looked up.
 */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** What a clock on the wall in a time zone shows at an instant. */
export interface WallClock {
  /** The calendar date, 'YYYY-MM-DD'. */
  day: string;
  /** ISO day of the week: Monday 1 … Sunday 7. */
  weekday: number;
  hour: number;
  minute: number;
  second: number;
}

const ISO_WEEKDAY: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

// Building an Intl.DateTimeFormat costs far more than using one: one per zone, for the process. A request asks for
// the same moment several times (the cap, the lots, the levels, the campaigns): the last answer is kept.
const zoneClocks = new Map<string, { format: Intl.DateTimeFormat; at: number; clock: WallClock }>();

function zoneEntry(timezone: string) {
  let entry = zoneClocks.get(timezone);
  if (!entry) {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    entry = { format, at: NaN, clock: { day: '', weekday: 0, hour: 0, minute: 0, second: 0 } };
    zoneClocks.set(timezone, entry);
  }
  return entry;
}

function readClock(format: Intl.DateTimeFormat, at: Date): WallClock {
  const p = Object.fromEntries(format.formatToParts(at).map((x) => [x.type, x.value]));
  return { day: `${p.year!.padStart(4, '0')}-${p.month}-${p.day}`, weekday: ISO_WEEKDAY[p.weekday!]!, hour: +p.hour!, minute: +p.minute!, second: +p.second! };
}

export function wallClock(at: Date, timezone: string): WallClock {
  const entry = zoneEntry(timezone);
  const ms = at.getTime();
  if (ms !== entry.at) {
    entry.clock = readClock(entry.format, at);
    entry.at = ms;
  }
  return entry.clock;
}

/** The calendar date of `at` in a time zone, 'YYYY-MM-DD': a venue's day, which per-day limits count by. */
export function venueDay(at: Date, timezone: string): string {
  return wallClock(at, timezone).day;
}

/** How far the zone's wall clock is ahead of UTC at `at` (ms since the epoch), in ms. */
function zoneOffset(at: number, timezone: string): number {
  // Read past the kept answer: the instants tried here would only push out the moment a request keeps asking for.
  const c = readClock(zoneEntry(timezone).format, new Date(at));
  return Date.UTC(+c.day.slice(0, 4), +c.day.slice(5, 7) - 1, +c.day.slice(8, 10), c.hour, c.minute, c.second) - Math.floor(at / 1000) * 1000;
}

/**
 * The moment a venue-local date starts: local midnight (on a day whose midnight a daylight-saving change skips,
 * the first moment that exists). The offset is read at the candidate itself, so a change between the UTC and the
 * local midnight is accounted for.
 */
export function startOfVenueDay(day: string, timezone: string): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00.000Z`);
  let at = midnightUtc - zoneOffset(midnightUtc, timezone);
  at = midnightUtc - zoneOffset(at, timezone);
  // Midnight that does not exist locally (a change at 00:00): the day starts when the clock jumps past it.
  while (zoneOffset(at, timezone) + at < midnightUtc) at += 15 * 60 * 1000;
  return new Date(at);
}
