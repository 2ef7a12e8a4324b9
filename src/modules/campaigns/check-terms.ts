// Which campaigns hold for a check (D22): bonuses in their weekly window in the venue's local time, a referred member's
// referrals; and what each may still credit.
import { wallClock } from '../../shared/time.js';
import type { Schedule } from './schemas.js';

/** A campaign that may credit a check, on its terms: what the check's calculation needs of it. */
export interface CampaignTerms {
  campaignId: string;
  name: string;
  /** A referral's: what each side gets, and who referred the member (credited with this check when it qualifies). */
  referral: { refereeAmount: number; referrerAmount: number; referrerId: string; referrerCap?: number | null } | null;
  percentBp: number | null;
  stampsMultiplier: number | null;
  categories: string[] | null;
  minCheckAmount: number | null;
  /** What its budget has left; null: no budget. */
  room: number | null;
}

/** A campaign as the check's gather reads it: its terms, its window, and what it gave the member so far. */
export interface CampaignRead {
  campaign_id: string;
  type: 'bonus' | 'referral';
  name: string;
  referee_amount: number | null;
  referrer_amount: number | null;
  referrer_id: string | null;
  schedule: Schedule | null;
  percent_bp: number | null;
  stamps_multiplier: number | null;
  categories: string[] | null;
  min_check_amount: number | null;
  room: number | null;
  max_per_member: number | null;
  /** Its credits so far (counted only where max_per_member is set): the member's, or a referral's referrer's as a referrer. */
  given: number;
}

const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether `at` falls in the window `[from, to)` of one of the schedule's days, in the venue's time zone. A window that
 * passes midnight belongs to the day it starts: Friday 22:00–02:00 covers Saturday 01:00, not Friday 01:00.
 */
export function inSchedule(schedule: Schedule | null, at: Date, timezone: string): boolean {
  if (!schedule) return true;
  const { weekday: day, hour, minute: minuteOfHour } = wallClock(at, timezone);
  const minute = hour * 60 + minuteOfHour;
  const from = minuteOf(schedule.from);
  const to = minuteOf(schedule.to);
  const on = (d: number) => schedule.days_of_week.includes(d);
  if (from < to) return on(day) && minute >= from && minute < to;
  const dayBefore = day === 1 ? 7 : day - 1;
  return (on(day) && minute >= from) || (on(dayBefore) && minute < to);
}

/**
 * The campaigns that hold for a check at `at` (its closing time) in the venue's time zone: bonuses in their window and
 * below their max_per_member; referrals, whose referrer gets nothing more once at max_per_member (the referee still
 * gets their share).
 */
export function campaignsAt(read: CampaignRead[], at: Date, timezone: string): CampaignTerms[] {
  const atMost = (b: CampaignRead) => b.max_per_member !== null && b.given >= b.max_per_member;
  return read
    .filter((b) => (b.type === 'referral' || !atMost(b)) && inSchedule(b.schedule, at, timezone))
    .map((b) => ({
      campaignId: b.campaign_id,
      name: b.name,
      referral:
        b.type === 'referral'
          ? {
              refereeAmount: Number(b.referee_amount ?? 0),
              referrerAmount: atMost(b) ? 0 : Number(b.referrer_amount ?? 0),
              referrerId: b.referrer_id!,
              referrerCap: b.max_per_member,
            }
          : null,
      percentBp: b.percent_bp,
      stampsMultiplier: b.stamps_multiplier,
      categories: b.categories,
      minCheckAmount: b.min_check_amount === null ? null : Number(b.min_check_amount),
      room: b.room === null ? null : Number(b.room),
    }));
}
