// Campaigns of a chain (D22): creation, changes and pausing, with the fields each type takes checked as a whole.
import type { Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { CampaignsTable } from '../../db/schema.js';
import { ApiError, parameterInvalid } from '../../shared/errors.js';
import { isUuid, newId } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatNullableTimestamp, formatTimestamp } from '../../shared/time.js';
import type { Caller } from '../accounts/schemas.js';
import { findChain } from '../accounts/service.js';
import * as audit from '../audit/service.js';
import { writeTogether, type Read, type ValueOrRef, type WriteStep } from '../../db/statement.js';
import { eventSteps, recordEvent, type EventRequest } from '../webhooks/events.js';
import type { CampaignRead } from './check-terms.js';
import * as repo from './repo.js';
import type { Campaign, CampaignResults, CampaignType, CreateCampaign, UpdateCampaign } from './schemas.js';

export { campaignsAt, type CampaignTerms } from './check-terms.js';
export { referralReference, type SpentRow } from './repo.js';

const LIST_URL = '/v1/campaigns';

/** The fields only some types take; every other type refuses them. */
const TYPE_FIELDS: Record<CampaignType, readonly SettingField[]> = {
  bonus: ['schedule', 'percent', 'stamps_multiplier', 'categories', 'min_check_amount'],
  welcome: ['amount', 'stamps'],
  birthday: ['amount', 'stamps'],
  referral: ['referrer_amount', 'referee_amount', 'min_check_amount'],
};
type SettingField = 'schedule' | 'percent' | 'stamps_multiplier' | 'categories' | 'min_check_amount' | 'amount' | 'stamps' | 'referrer_amount' | 'referee_amount';
const SETTING_FIELDS = [...new Set(Object.values(TYPE_FIELDS).flat())];

/** The campaign's settings as the API names them, whole: what a create sends, or the stored row with an update's changes. */
type Settings = Required<Omit<CreateCampaign, 'type'>>;

export function presentCampaign(row: repo.CampaignRow, now: Date): Campaign {
  return {
    object: 'campaign',
    id: row.id,
    type: row.type,
    status: row.ends_at !== null && row.ends_at <= now ? 'ended' : row.status,
    spent: row.spent,
    livemode: row.livemode,
    ...settingsOf(row),
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}

function settingsOf(row: repo.CampaignRow): Settings {
  return {
    name: row.name,
    venue_ids: row.venue_ids,
    starts_at: formatNullableTimestamp(row.starts_at),
    ends_at: formatNullableTimestamp(row.ends_at),
    budget: row.budget,
    max_per_member: row.max_per_member,
    schedule: row.schedule,
    percent: row.percent_bp === null ? null : row.percent_bp / 100,
    stamps_multiplier: row.stamps_multiplier,
    categories: row.categories,
    min_check_amount: row.min_check_amount,
    amount: row.amount,
    stamps: row.stamps,
    referrer_amount: row.referrer_amount,
    referee_amount: row.referee_amount,
  };
}

function columnsOf(s: Settings): Updateable<CampaignsTable> {
  return {
    name: s.name,
    venue_ids: s.venue_ids,
    starts_at: s.starts_at,
    ends_at: s.ends_at,
    budget: s.budget,
    max_per_member: s.max_per_member,
    schedule: s.schedule === null ? null : JSON.stringify(s.schedule),
    percent_bp: s.percent === null ? null : Math.round(s.percent * 100),
    stamps_multiplier: s.stamps_multiplier,
    categories: s.categories,
    min_check_amount: s.min_check_amount,
    amount: s.amount,
    stamps: s.stamps,
    referrer_amount: s.referrer_amount,
    referee_amount: s.referee_amount,
  };
}

/** `given`: the fields the call sent; of both set, the one sent second (or sent at all) is named. */
const exactlyOne = (s: Settings, a: SettingField, b: SettingField, why: string, given: ReadonlySet<string>) => {
  if ((s[a] === null) !== (s[b] === null)) return;
  const param = s[a] === null ? a : given.has(b) ? b : a;
  throw parameterInvalid(param, `A ${why} campaign takes exactly one of ${a} (cashback) and ${b} (stamps).`);
};

const typesTaking = (field: SettingField) =>
  (Object.keys(TYPE_FIELDS) as CampaignType[]).filter((t) => TYPE_FIELDS[t].includes(field)).join(' and ');

/** The rules a whole campaign obeys, whichever call made it so. */
function checkSettings(type: CampaignType, s: Settings, chainVenues: Set<string>, given: ReadonlySet<string>): void {
  if (!s.name.trim()) throw parameterInvalid('name', 'name must not be empty.');
  for (const field of SETTING_FIELDS) {
    if (s[field] !== null && !TYPE_FIELDS[type].includes(field)) {
      throw parameterInvalid(field, `${field} applies to ${typesTaking(field)} campaigns only, not to a ${type} campaign.`);
    }
  }
  if (s.starts_at !== null && s.ends_at !== null && Date.parse(s.ends_at) <= Date.parse(s.starts_at)) {
    throw parameterInvalid('ends_at', 'ends_at must be later than starts_at.');
  }
  if (s.schedule && s.schedule.from === s.schedule.to) {
    throw parameterInvalid('schedule.to', 'schedule.to must differ from schedule.from (a window of no time, or of a whole day, is ambiguous; leave the schedule out for all day).');
  }
  if (type === 'bonus') {
    exactlyOne(s, 'percent', 'stamps_multiplier', 'bonus', given);
    if (s.stamps_multiplier !== null && s.categories !== null) throw parameterInvalid('categories', 'categories apply to a cashback bonus (percent) only: stamps are earned per check, not per line.');
  }
  if (type === 'welcome' || type === 'birthday') exactlyOne(s, 'amount', 'stamps', type, given);
  if (type === 'referral' && !s.referrer_amount && !s.referee_amount) {
    throw parameterInvalid('referrer_amount', 'A referral campaign credits at least one side: referrer_amount or referee_amount above 0.');
  }
  for (const venueId of s.venue_ids ?? []) {
    if (!chainVenues.has(venueId)) throw new ApiError('venue_not_found', { param: 'venue_ids', message: `No venue ${venueId} in this chain.` });
  }
}

/** A venue's own key acts at its venue (D21): the campaigns it sets up or changes reach that venue only. */
function checkKeyVenue(caller: Caller, venueIds: string[] | null): void {
  if (caller.keyVenueId !== null && (venueIds === null || venueIds.some((v) => v !== caller.keyVenueId))) {
    throw new ApiError('venue_not_allowed', { param: 'venue_ids', message: `This key belongs to one venue: a campaign it sets up has venue_ids ["${caller.keyVenueId}"].` });
  }
}

const notFound = () => new ApiError('campaign_not_found');

async function findOwned(db: Db, caller: Caller, id: string, forUpdate = false): Promise<repo.CampaignRow> {
  const row = isUuid(id) ? await repo.findCampaign(db, caller.chainId, id, forUpdate) : undefined;
  if (!row) throw notFound();
  return row;
}

/** What a campaign has when nothing is set: every field but the name is null. */
const UNSET: Omit<Settings, 'name'> = {
  venue_ids: null,
  starts_at: null,
  ends_at: null,
  budget: null,
  max_per_member: null,
  schedule: null,
  percent: null,
  stamps_multiplier: null,
  categories: null,
  min_check_amount: null,
  amount: null,
  stamps: null,
  referrer_amount: null,
  referee_amount: null,
};

/** Ids as the database writes them: an id sent in capitals names the same venue. */
const lowerCaseIds = <T extends { venue_ids?: string[] | null }>(input: T): T =>
  input.venue_ids ? { ...input, venue_ids: [...new Set(input.venue_ids.map((v) => v.toLowerCase()))] } : input;

async function venuesOf(db: Db, caller: Caller): Promise<Set<string>> {
  return new Set((await findChain(db, caller.chainId))?.venues.map((v) => v.id) ?? []);
}

/** A campaign is the chain's: its changes are recorded at no venue, unless a venue's own key made them. */
const campaignPlace = (caller: Caller) => ({ ...audit.placeOf(caller), venueId: caller.keyVenueId });

/** Unset fields are null; a venue's own key that names no venues sets one up for its venue. */
export async function createCampaign(db: Db, caller: Caller, input: CreateCampaign): Promise<Campaign> {
  const { type, ...given } = input;
  const settings: Settings = { ...UNSET, venue_ids: caller.keyVenueId === null ? null : [caller.keyVenueId], ...lowerCaseIds(given) };
  checkSettings(type, settings, await venuesOf(db, caller), new Set(Object.keys(given)));
  checkKeyVenue(caller, settings.venue_ids);
  const row = await repo.insertCampaign(db, {
    chain_id: caller.chainId,
    id: newId(),
    type,
    status: 'active',
    livemode: caller.livemode,
    ...columnsOf(settings),
    name: settings.name,
    created_at: caller.now,
    updated_at: caller.now,
  });
  const fields = Object.keys(settings) as (keyof Settings)[];
  await audit.recordAudit(db, campaignPlace(caller), {
    action: 'campaign.created',
    target: { type: 'campaign', id: row.id },
    changes: audit.changedFields(null, { type, ...settings }, ['type', ...fields]),
  });
  return presentCampaign(row, caller.now);
}

/**
 * What a campaign gave and what the members it reached spent while it ran: from its start (starts_at, else its
 * creation) to its end (ends_at once passed, or when it was first ended by hand, whichever came first), if any.
 */
export async function campaignResults(db: Db, caller: Caller, id: string): Promise<CampaignResults> {
  const row = await findOwned(db, caller, id);
  const from = row.starts_at ?? row.created_at;
  const planned = row.ends_at !== null && row.ends_at <= caller.now ? new Date(row.ends_at) : null;
  const byHand = row.ended_at === null ? null : new Date(row.ended_at);
  const ended = planned && byHand ? (planned < byHand ? planned : byHand) : (planned ?? byHand);
  const figures = await repo.resultFigures(db, row, from, ended);
  return { object: 'campaign_results', campaign_id: row.id, from: formatTimestamp(from), to: formatNullableTimestamp(ended), ...figures };
}

export async function getCampaign(db: Db, caller: Caller, id: string): Promise<Campaign> {
  return presentCampaign(await findOwned(db, caller, id), caller.now);
}

export async function listCampaigns(db: Db, caller: Caller, page: Page, filter: { type?: CampaignType; livemode?: boolean }): Promise<List<Campaign>> {
  await checkCursor(page, (cursor) => repo.findCampaign(db, caller.chainId, cursor));
  return toList(LIST_URL, page, await repo.listCampaigns(db, caller.chainId, page, filter), (row) => presentCampaign(row, caller.now));
}

/** One setting as sent and as stored: starts_at and ends_at by the instant they name (…:00Z is …:00.000+00:00). */
const sameSetting = (field: string, a: unknown, b: unknown) =>
  (field === 'starts_at' || field === 'ends_at') && typeof a === 'string' && typeof b === 'string'
    ? Date.parse(a) === Date.parse(b)
    : JSON.stringify(a) === JSON.stringify(b);

/** A campaign's unit (what its budget counts) is set at creation: these fields never change from null or to null. */
const UNIT_FIELDS = ['percent', 'stamps_multiplier', 'amount', 'stamps'] as const;

/**
 * Changes what is given, the rest kept; the whole campaign is checked again. The row is locked first, so a budget
 * is never set below what a check spending from it at the same moment has made `spent`. An ended campaign (by its
 * status or its `ends_at`) stays as it is: 409 for a status, 400 for anything else.
 */
export async function updateCampaign(db: Db, caller: Caller, id: string, input: UpdateCampaign): Promise<Campaign> {
  const row = await findOwned(db, caller, id, true);
  const { status, ...given } = lowerCaseIds(input);
  const before = settingsOf(row);
  if (presentCampaign(row, caller.now).status === 'ended') {
    if (status !== undefined && status !== 'ended') {
      throw new ApiError('invalid_status_transition', {
        param: 'status',
        message: 'An ended campaign stays ended; create a new one.',
        details: { status: 'ended', requested_status: status },
      });
    }
    const changed = Object.keys(given).find((k) => !sameSetting(k, given[k as keyof typeof given], before[k as keyof Settings]));
    if (changed) throw parameterInvalid(changed, 'An ended campaign cannot be changed; create a new one.');
  }
  const settings: Settings = { ...before, ...given };
  for (const field of UNIT_FIELDS) {
    if ((before[field] === null) !== (settings[field] === null)) {
      throw parameterInvalid(field, `A campaign's unit is set when it is created (${field} can be changed, not set or removed); create a new campaign for the other unit.`);
    }
  }
  // Its budget's row is written by every credit, a campaign without one never: which of the two it is stays as created.
  if ((before.budget === null) !== (settings.budget === null)) {
    throw parameterInvalid('budget', 'A campaign keeps a budget, or goes without one, as it was created (a budget can be raised or lowered); create a new campaign for the other.');
  }
  // A venue's key may change a campaign of its own venue only: what it was as well as what it becomes.
  checkKeyVenue(caller, before.venue_ids);
  checkKeyVenue(caller, settings.venue_ids);
  checkSettings(row.type, settings, await venuesOf(db, caller), new Set(Object.keys(given)));
  if (settings.budget !== null && settings.budget < row.spent) {
    throw parameterInvalid('budget', `budget cannot be less than what the campaign has already credited (${row.spent}).`);
  }
  const updated = await repo.updateCampaign(db, caller.chainId, id, {
    ...columnsOf(settings),
    ...(status === undefined ? {} : { status }),
    // The first end by hand is when it stopped; ending it again changes nothing of that.
    ...(status === 'ended' && row.ended_at === null ? { ended_at: caller.now } : {}),
    updated_at: caller.now,
  });
  const fields = Object.keys(settings) as (keyof Settings)[];
  await audit.recordAudit(db, campaignPlace(caller), {
    action: 'campaign.updated',
    target: { type: 'campaign', id },
    changes: audit.changedFields({ ...before, status: row.status }, { ...settingsOf(updated), status: updated.status }, [...fields, 'status']),
  });
  // A budget lowered to exactly what was spent has run out as surely as one a credit emptied.
  if (updated.budget !== null && updated.budget === updated.spent && row.budget !== updated.budget) await announceExhausted(db, { ...caller, livemode: updated.livemode }, updated, null);
  return presentCampaign(updated, caller.now);
}

/** What one campaign credited: `amount` in the campaign's unit (cashback minor units, or stamps). */
export interface CampaignCredit {
  campaign_id: string;
  name: string;
  amount: number;
  /** The ledger entry's reference: what makes a credit once only (a birthday's `birthday-2026`). */
  reference?: string;
}

/**
 * Takes the welcome credits of a member enrolled now at the caller's venue: from every active welcome campaign in
 * the member's unit, its full amount, or what is left of its budget when less (the last enrolment gets what is
 * left). A budget this empties is announced once, by `campaign.budget_exhausted` in the same transaction.
 */
export async function takeWelcome(trx: Db, caller: Caller, unit: 'amount' | 'stamps', request: EventRequest): Promise<CampaignCredit[]> {
  return takeFrom(trx, caller, await repo.lockCrediting(trx, caller, 'welcome', unit), unit, request);
}

/** The birthday campaign's credit of `year` (`reference` birthday-<year>), when it may still credit where and now. */
export async function takeBirthday(trx: Db, where: repo.CreditPlace, campaignId: string, unit: 'amount' | 'stamps', year: number): Promise<CampaignCredit[]> {
  return takeFrom(trx, where, await repo.lockCrediting(trx, where, 'birthday', unit, campaignId), unit, null, `birthday-${year}`);
}

/** Each campaign's `unit` or what is left of its budget, added to `spent`; the campaigns are locked already. */
async function takeFrom(
  trx: Db,
  where: repo.CreditPlace,
  rows: repo.CampaignRow[],
  unit: 'amount' | 'stamps',
  request: EventRequest,
  reference?: string,
): Promise<CampaignCredit[]> {
  const credits: CampaignCredit[] = [];
  for (const row of rows) {
    const wanted = row[unit]!;
    const taken = row.budget === null ? wanted : Math.min(wanted, row.budget - row.spent);
    credits.push({ campaign_id: row.id, name: row.name, amount: taken, ...(reference ? { reference } : {}) });
    if (row.budget === null) continue;
    const after = await repo.addSpent(trx, where.chainId, row.id, taken, where.now);
    if (after.spent === after.budget) await announceExhausted(trx, where, after, request);
  }
  return credits;
}

/** `campaign.budget_exhausted`, in the transaction that used the budget up. */
async function announceExhausted(trx: Db, where: repo.CreditPlace, row: repo.CampaignRow, request: EventRequest): Promise<void> {
  await recordEvent(trx, {
    chainId: where.chainId,
    venueId: where.venueId,
    type: 'campaign.budget_exhausted',
    livemode: where.livemode,
    object: presentCampaign(row, where.now),
    request,
  });
}

/** The campaigns that may credit a check of `memberId` at the place and moment `at`, as a read of the check's gather. */
export function checkCampaignsRead(where: Omit<repo.CreditPlace, 'now'> & { venueId: string }, memberId: ValueOrRef<string>, at: Date): Read<CampaignRead[]> {
  return { query: repo.checkCampaignsJson(where, memberId, at), parse: (value) => (value ?? []) as CampaignRead[] };
}

/** A credit that took the last of the budget (announced once: by the credit that emptied it). */
const emptiedNow = (row: repo.TakenRow) => row.taken > 0 && row.budget !== null && row.spent === row.budget;

/**
 * How far a budget's room (as the check's gather read it) must pass what a check wants of it for the credit to be
 * written with the check alone: other checks taking from it at the same moment would have to be this many to empty it.
 */
const AMPLE_ROOM = 100;

/** How a check takes its campaigns' budgets: what they credit, the steps of its write, and what to do after it. */
export interface CheckTake {
  credits: CampaignCredit[];
  steps: WriteStep[];
  /** The step of the write whose rows announceEmptied wants afterwards; none: nothing to announce. */
  returning?: string;
}

/**
 * Takes what a check's campaigns credit from their budgets, under the member's lock already held. Where every budget
 * had ample room (`room`: budget − spent as the gather read it; null: no budget), the credits are written as wanted by
 * the check's own write, whose row locks are then held only until its commit (a budget passed after all fails the
 * write, and the transaction runs again). Else, and always when the check also credits referrers (`referrers`: their
 * side comes out of the same budgets, after this one, in the middle of the check), the rows are locked in id order in
 * a statement of their own, each gives what is wanted or what is left (the last check gets what is left), and the
 * check answers with that.
 */
export async function takeForCheck(
  trx: Db,
  where: repo.CreditPlace,
  wanted: (CampaignCredit & { room: number | null })[],
  referrers: boolean,
  request: EventRequest,
): Promise<CheckTake> {
  const credits = wanted.map(({ room: _, ...credit }) => credit);
  // A campaign without a budget takes nothing from a row: its credits are its spent.
  const budgeted = wanted.filter((w) => w.room !== null).map((w) => ({ id: w.campaign_id, amount: w.amount }));
  if (budgeted.length === 0) return { credits, steps: [] };
  if (!referrers && wanted.every((w) => w.room === null || w.room >= AMPLE_ROOM * w.amount)) {
    return { credits, steps: [repo.spentStep(where.chainId, budgeted, where.now)], returning: 'campaigns_spent' };
  }
  const rows = await repo.takeWanted(trx, where.chainId, budgeted, where.now);
  const taken = new Map(rows.map((r) => [r.id, r.taken]));
  const emptied = rows.filter(emptiedNow);
  return {
    credits: wanted.map(({ room, ...w }) => ({ ...w, amount: room === null ? w.amount : (taken.get(w.campaign_id) ?? 0) })),
    steps: emptied.flatMap(({ taken: _, ...row }, i) =>
      eventSteps(trx, { chainId: where.chainId, venueId: where.venueId, type: 'campaign.budget_exhausted', livemode: where.livemode, object: presentCampaign(row, where.now), request }, `exhausted_${i}`),
    ),
  };
}

/** After a check's write that took the credits with it (CheckTake.returning): announces the budgets it emptied. */
export async function announceEmptied(trx: Db, where: repo.CreditPlace, written: repo.SpentRow[], request: EventRequest): Promise<void> {
  for (const row of written) {
    if (row.budget !== null && row.spent === row.budget) await announceExhausted(trx, where, (await repo.findCampaign(trx, where.chainId, row.id))!, request);
  }
}

/** Gives back to the campaigns what a void or refund took back of their credits, as a step of its write; none for nothing. */
export function giveBackSteps(chainId: string, back: { campaign_id: string; amount: number }[], at: Date): WriteStep[] {
  const given = back.filter((b) => b.amount > 0).map((b) => ({ id: b.campaign_id, amount: -b.amount }));
  return given.length ? [repo.spentStep(chainId, given, at)] : [];
}

/** `ledger verify`: every campaign's `spent` against its ledger entries; empty when all agree. */
export async function verifySpent(db: Db, chainId?: string): Promise<repo.SpentDifference[]> {
  return repo.spentDifferences(db, chainId);
}

/**
 * The referrer's side of a referral the referee's check qualified for (`wanted`: its amount, with the referral's
 * reference), taken after the referee's side: what the budget has left when less.
 */
/**
 * Whether a referral's referrer already had `cap` credits as a referrer: read once the referrer is locked, since the
 * check's gather read it before, and ten referees' checks at once would each have seen room for one more.
 */
export async function referrerAtCap(trx: Db, chainId: string, campaignId: string, referrerId: string, cap: number | null | undefined): Promise<boolean> {
  return cap !== null && cap !== undefined && (await repo.countReferrerCredits(trx, chainId, campaignId, referrerId)) >= cap;
}

export async function takeForReferrer(trx: Db, where: repo.CreditPlace, wanted: CampaignCredit, budgeted: boolean, request: EventRequest): Promise<CampaignCredit[]> {
  if (!budgeted) return [wanted];
  const [row] = await repo.takeWanted(trx, where.chainId, [{ id: wanted.campaign_id, amount: wanted.amount }], where.now);
  if (!row) return [];
  const { taken, ...after } = row;
  if (emptiedNow(row)) await announceExhausted(trx, where, after, request);
  return [{ ...wanted, amount: taken }];
}

/** Gives back to the campaigns what was taken back of their credits, in a statement of its own. */
export async function giveBack(trx: Db, chainId: string, back: { campaign_id: string; amount: number }[], at: Date): Promise<void> {
  await writeTogether(trx, giveBackSteps(chainId, back, at));
}
