// The worker's birthday credits (D22): once a calendar year per member and campaign, on the birthday in the home
// venue's timezone (29 February on 28 February in other years); a worker that was down catches up 7 days.
import type { Db } from '../db/database.js';
import { venueDay } from '../shared/time.js';
import { creditCampaigns } from '../modules/members/campaign-credits.js';
import * as repo from '../modules/campaigns/repo.js';
import { takeBirthday } from '../modules/campaigns/service.js';

/** How many days back a birthday is still credited (today and the six before it). */
const CATCH_UP_DAYS = 7;

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const dayBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

/** The date the birthday falls on in `year`: 29 February is 28 February when the year has none. */
export function birthdayIn(birthday: string, year: number): string {
  const monthDay = birthday.slice(-5);
  return `${year}-${monthDay === '02-29' && !isLeap(year) ? '02-28' : monthDay}`;
}

/**
 * The year whose birthday is due on `today` (a venue-local date): on it or in the days before it still caught up,
 * and not before `notBefore` (a local date: a birthday from before the campaign, the enrolment or the birthday's
 * setting is not caught up).
 */
export function dueYear(birthday: string, today: string, notBefore = '0000-01-01'): number | null {
  const earliest = dayBefore(today, CATCH_UP_DAYS - 1);
  const year = Number(today.slice(0, 4));
  for (const y of [year, year - 1]) {
    const on = birthdayIn(birthday, y);
    if (on <= today && on >= earliest && on >= notBefore) return y;
  }
  return null;
}

const yearOf = (reference: string | null) => (reference?.startsWith('birthday-') ? Number(reference.slice(9)) : null);

/** Every MM-DD a birthday due somewhere on earth at `now` can have: a day's margin both ways for the timezones. */
function monthDaysAround(now: Date): string[] {
  const today = now.toISOString().slice(0, 10);
  const days = Array.from({ length: CATCH_UP_DAYS + 2 }, (_, i) => dayBefore(today, i - 1).slice(5));
  return days.includes('02-28') ? [...days, '02-29'] : days;
}

/** One pass: credits every birthday due now; how many credits it wrote. */
export async function runBirthdays(db: Db, now: Date, batch = 200): Promise<number> {
  // A credit of the campaign in the window's days (and a day's margin) was for this birthday.
  const since = new Date(now.getTime() - (CATCH_UP_DAYS + 2) * 86_400_000);
  let credited = 0;
  let after: repo.BirthdayCandidate | null = null;
  for (;;) {
    const candidates = await repo.birthdayCandidates(db, now, monthDaysAround(now), since, after, batch);
    for (const c of candidates) {
      const due = dueYear(c.birthday, venueDay(now, c.timezone), venueDay(new Date(c.not_before), c.timezone));
      if (due === null) continue;
      const place = { chainId: c.chain_id, venueId: c.home_venue_id, livemode: c.livemode, timezone: c.timezone, now };
      const credits = await db.transaction().execute((trx) =>
        creditCampaigns(trx, place, c.member_id, async (unit) => {
          // After the member's lock: what another worker credited meanwhile counts. A year credited already, or a later
          // one (a birthday moved back across the new year), gives nothing more.
          const given = await repo.creditsGiven(trx, c.chain_id, c.campaign_id, c.member_id);
          if (given.some((reference) => (yearOf(reference) ?? 0) >= due)) return [];
          const row = await repo.findCampaign(trx, c.chain_id, c.campaign_id);
          if (row?.max_per_member != null && given.length >= row.max_per_member) return [];
          return takeBirthday(trx, place, c.campaign_id, unit, due);
        }, null),
      );
      credited += credits.length;
    }
    if (candidates.length < batch) break;
    after = candidates.at(-1)!;
  }
  return credited;
}
