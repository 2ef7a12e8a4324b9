// A line of a members file checked as the member it stands for, as enrolment checks a member (POST /v1/members),
// with the opening figures the program can hold; or why it cannot be imported.
import { Compile } from 'typebox/compile';
import { unstorable } from '../../http/input.js';
import { bulkItemErrors } from '../../shared/bulk.js';
import { isCalendarDay } from '../../shared/time.js';
import type { ProgramInfo } from '../programs/schemas.js';
import type { ImportedMember } from './bulk-import-repo.js';
import { IMPORT_FIELDS, type Field } from './bulk-import-read.js';
import { EnrolMember } from './schemas.js';
import { normaliseEmail, normalisePhone } from './service.js';

/**
 * The largest opening figures a line may carry, so every value fits what the database holds with room to grow: money
 * (bigint, minor units) up to 10 billion in major units; visits and stamps (integer, at most 2,147,483,647) up to a
 * billion, so the member's next visits never overflow.
 */
export const MAX_MONEY = 1_000_000_000_000;
export const MAX_COUNT = 1_000_000_000;
/** The earliest consent date taken: anything older is a typing error, not a guest's agreement. */
const EARLIEST_CONSENT = '1900-01-01';

/** A good line's member, before a batch draws their ids and serial. */
export type LineMember = Omit<ImportedMember, 'id' | 'ledger_id' | 'serial' | 'referral_code' | 'card_hash'>;

/** A whole number from 0 to `max`; empty is 0. */
function amount(fields: Partial<Record<Field, string>>, field: Field, max: number): number | string {
  const text = fields[field]?.trim() ?? '';
  if (text === '') return 0;
  if (!/^\d+$/.test(text) || Number(text) > max) return `${field} must be a whole number from 0 to ${max}${max === MAX_MONEY ? ' in minor units (cents)' : ''}.`;
  return Number(text);
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2})))?$/;

/**
 * A consent date as YYYY-MM-DD (a real calendar date, read as UTC midnight) or an RFC 3339 date and time with its
 * offset (without one it would be read in whatever zone the server runs in), from 1900 to `now`.
 */
function consentDate(text: string | undefined, now: Date): Date | string {
  const value = text?.trim() ?? '';
  if (value === '') return 'consent_date is required: import only guests who agreed to join, with the date they did.';
  const parts = RFC3339.exec(value);
  const day = parts && isCalendarDay(parts[1]!) ? new Date(`${parts[1]}T00:00:00Z`) : null;
  const valid =
    parts &&
    day &&
    (parts[2] === undefined || (Number(parts[2]) < 24 && Number(parts[3]) < 60 && Number(parts[4]) < 60 && Number(parts[5] ?? 0) < 24 && Number(parts[6] ?? 0) < 60));
  if (!valid) return 'consent_date must be a date as YYYY-MM-DD or an RFC 3339 date and time with its offset (2024-03-01T18:30:00+01:00).';
  const at = parts[2] === undefined ? day : new Date(value.replace(' ', 'T'));
  if (at < new Date(`${EARLIEST_CONSENT}T00:00:00Z`)) return `consent_date is before ${EARLIEST_CONSENT}.`;
  if (at > now) return 'consent_date is in the future.';
  return at;
}

const enrolmentCheck = Compile(EnrolMember);

/** A line as the member it stands for, checked as enrolment checks a member, or why it cannot be imported. */
export function memberOf(fields: Partial<Record<Field, string>>, program: ProgramInfo, country: string, now: Date): LineMember | string {
  for (const field of IMPORT_FIELDS) {
    const reason = fields[field] === undefined ? undefined : unstorable(fields[field]);
    if (reason) return `${field} ${reason}.`;
  }
  // Checked as sent, as POST /v1/members checks them (its schema's lengths count the spaces too); stored trimmed.
  const { phone, email, name } = fields;
  const enrolment = {
    card_number: fields.card_number ?? '',
    consent: true,
    ...(phone?.trim() ? { phone } : {}),
    ...(email?.trim() ? { email } : {}),
    ...(name?.trim() ? { name } : {}),
  };
  if (!fields.card_number) return 'card_number is required.';
  // Compiled for the good lines (the many); the schema's own message for a bad one.
  if (!enrolmentCheck.Check(enrolment)) return bulkItemErrors(EnrolMember, [enrolment], 'card_number')[0]!.message;
  const consentedAt = consentDate(fields.consent_date, now);
  if (typeof consentedAt === 'string') return consentedAt;
  let e164: string | null = null;
  let address: string | null = null;
  try {
    e164 = enrolment.phone ? normalisePhone(enrolment.phone, country) : null;
    address = enrolment.email ? normaliseEmail(enrolment.email) : null;
  } catch (err) {
    return (err as Error).message;
  }
  const cashback = amount(fields, 'opening_balance', MAX_MONEY);
  const spend = amount(fields, 'total_spend', MAX_MONEY);
  const visits = amount(fields, 'visits', MAX_COUNT);
  const stamps = amount(fields, 'stamps', MAX_COUNT);
  for (const figure of [cashback, spend, visits, stamps]) if (typeof figure === 'string') return figure;
  if (cashback !== 0 && program.rules.type !== 'cashback') return `opening_balance applies only to a cashback program; ${program.name} is ${program.rules.type}.`;
  if (stamps !== 0 && program.rules.type !== 'stamps') return `stamps apply only to a stamps program; ${program.name} is ${program.rules.type}.`;
  // A full card is a reward the guest has not had: the till would hand it over at the next visit, unasked. The
  // venue decides that, not the import.
  if (program.rules.type === 'stamps' && (stamps as number) >= program.rules.stampsRequired) {
    return `stamps must be fewer than the ${program.rules.stampsRequired} a reward takes; give rewards owed at the till, not as stamps.`;
  }
  return {
    card_number: enrolment.card_number,
    phone: e164,
    email: address,
    name: name?.trim() || null,
    consented_at: consentedAt.toISOString(),
    cashback: cashback as number,
    spend: spend as number,
    visits: visits as number,
    stamps: stamps as number,
  };
}
