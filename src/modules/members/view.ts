// A member as the API shows it: balances, levels, stamps and discounts computed from ledger totals (D10), with display text.
import { formatDay, formatMoney, formatPercent, shortName, type Display } from '../../shared/display.js';
import { formatTimestamp } from '../../shared/time.js';
import type { VenueLocale } from '../accounts/schemas.js';
import type { ProgramInfo } from '../programs/schemas.js';
import { levelSpendOf, memberLevel, nextLevelAfter, visitDiscountBp } from '../programs/rules.js';
import { expiringSoon, expiryRuleOf } from './expiry.js';
import type { MemberRecord } from './repo.js';
import type { Member } from './schemas.js';

const pct = (bp: number) => bp / 100;

export function availableOf(record: MemberRecord): number {
  return record.cashback - record.held;
}

export function presentMember(record: MemberRecord, program: ProgramInfo, venue: VenueLocale): Member {
  const rules = program.rules;
  const member: Member = {
    object: 'member',
    id: record.id,
    home_venue_id: record.home_venue_id,
    program_id: record.program_id,
    program_type: rules.type,
    card_numbers: record.card_numbers,
    serial: record.serial,
    barcode: {
      format: program.barcodeFormat,
      value: program.barcodeFormat === 'qr_serial' ? record.serial : (record.card_numbers[0] ?? record.serial),
    },
    phone: record.phone,
    email: record.email,
    name: record.name,
    consent: true,
    consented_at: formatTimestamp(record.consented_at),
    total_spend: record.spend,
    visits: record.visits,
    balance: null,
    held: null,
    available: null,
    expiring: null,
    level: null,
    level_spend: null,
    levels: null,
    next_level: null,
    stamps: null,
    discount_percent: null,
    vip_level: null,
    last_visit_at: record.last_visit_at && formatTimestamp(record.last_visit_at),
    birthday: record.birthday,
    referral_code: record.referral_code,
    livemode: record.livemode,
    created_at: formatTimestamp(record.created_at),
    display: { cashier: '', receipt: [] },
  };
  const who = shortName(record.name, `Member ${record.serial}`);
  const money = (minor: number) => formatMoney(minor, venue);
  const percent = (bp: number) => formatPercent(bp, venue.locale);

  if (rules.type === 'cashback' || rules.type === 'vip') {
    const spend = levelSpendOf(rules, record);
    const level = memberLevel(rules, record.vip_level, spend)!;
    const manual = rules.type === 'vip' && record.vip_level !== null && level.name === record.vip_level;
    const next = manual ? undefined : nextLevelAfter(rules.levels, spend);
    member.level = { name: level.name, percent: pct(level.percentBp), min_spend: level.minSpend };
    member.level_spend = spend;
    member.levels = rules.levels.map((l) => ({ name: l.name, percent: pct(l.percentBp), min_spend: l.minSpend, reached: l.minSpend <= spend }));
    member.next_level = next ? { name: next.name, percent: pct(next.percentBp), spend_needed: next.minSpend - spend } : null;
    if (rules.type === 'cashback') {
      member.balance = record.cashback;
      member.held = record.held;
      member.available = availableOf(record);
      // Expiry (D20): record.lots are the open lots with what was due already expired (expiry-service.ts settle).
      member.expiring = expiryRuleOf(rules) ? expiringSoon(record.lots ?? []) : null;
      const next = member.expiring?.[0];
      const expiresLine = next ? [`${money(next.amount)} expires on ${formatDay(next.on, venue.locale)}`] : [];
      member.display = {
        cashier: [`${who} · ${level.name} ${percent(level.percentBp)} · available ${money(member.available)}`, ...expiresLine].join(' · '),
        receipt: [`Cashback available: ${money(member.available)}`, ...expiresLine, `Level: ${level.name} ${percent(level.percentBp)}`],
      };
    } else {
      member.vip_level = record.vip_level;
      member.discount_percent = pct(level.percentBp);
      member.display = { cashier: `${who} · ${level.name} · discount ${percent(level.percentBp)}`, receipt: [`${level.name}: ${percent(level.percentBp)} off`] };
    }
  } else if (rules.type === 'stamps') {
    // Stamps owed (a voided check's, after its reward was redeemed) show as a negative count, as cashback debt does.
    const stamps = record.stamps;
    member.stamps =
      stamps < 0
        ? { count: stamps, required: rules.stampsRequired, rewards_available: 0 }
        : { count: stamps % rules.stampsRequired, required: rules.stampsRequired, rewards_available: Math.floor(stamps / rules.stampsRequired) };
    member.display = stampsDisplay(who, member.stamps, rules.rewardName);
  } else {
    const bp = visitDiscountBp(rules.tiers, record.visits);
    member.discount_percent = pct(bp);
    member.display = { cashier: `${who} · ${record.visits} visits · discount ${percent(bp)}`, receipt: [`Visit discount: ${percent(bp)}`] };
  }
  return member;
}

/**
 * What a receipt adds when stamps just earned (`earned`, leaving the member at `after`) paid back stamps owed: a
 * voided check's, after its reward was redeemed. Empty when they paid back none.
 */
export function owedStampsPaidBack(after: NonNullable<Member['stamps']>, earned: number): string {
  const total = after.count < 0 ? after.count : after.rewards_available * after.required + after.count;
  const owed = Math.min(earned, Math.max(0, earned - total));
  return owed > 0 ? ` · ${owed} owed stamp${owed > 1 ? 's' : ''} paid back` : '';
}

function stampsDisplay(who: string, s: NonNullable<Member['stamps']>, rewardName: string): Display {
  const rewards = s.rewards_available > 0 ? ` · ${s.rewards_available} × ${rewardName} ready` : '';
  return { cashier: `${who} · stamps ${s.count}/${s.required}${rewards}`, receipt: [`Stamps: ${s.count}/${s.required}`] };
}
