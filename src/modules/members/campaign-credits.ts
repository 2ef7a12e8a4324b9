// Campaign credits of one member (D22), for the welcome of an enrolment, the worker's birthdays and a referrer's credit
// alike: the member locked, then the campaigns' budgets taken (that order, as a check takes them), then one `campaign`
// entry per credit; and a referrer's credit taken back by the void of the check that gave it.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { readTogether, writeTogether } from '../../db/statement.js';
import { venueDay } from '../../shared/time.js';
import type { CampaignCredit } from '../campaigns/service.js';
import { listPrograms } from '../programs/service.js';
import type { EventRequest } from '../webhooks/events.js';
import { lotsWrite, settle } from './expiry-service.js';
import * as lotsRepo from './expiry-repo.js';
import { ledgerRows, type LedgerPlace } from './money.js';
import * as repo from './repo.js';

/** Where and when credits are written: the venue (the enrolment's, or the member's home venue) and its timezone. */
export interface CreditPlace extends LedgerPlace {
  timezone: string;
  now: Date;
}

/** What a member's program counts a campaign's credit in; null: a program without a balance (visit discount, VIP). */
export type CreditUnit = 'amount' | 'stamps';

/**
 * Locks the member, asks `take` for the credits of their unit (it locks and spends the campaigns' budgets), and writes
 * each credit other than 0 as a `campaign` entry naming its campaign: cashback into the lot of the place's day, as a
 * check's earning of that day would go; a negative one (taken back) out of it first. Returns what was credited;
 * nothing for a member not found or of no balance.
 */
export async function creditCampaigns(
  trx: Db,
  place: CreditPlace,
  memberId: string,
  take: (unit: CreditUnit) => Promise<CampaignCredit[]>,
  request: EventRequest,
): Promise<CampaignCredit[]> {
  const member = await repo.matchingMember(trx, place.chainId, { by: 'named', memberId: sql<string>`${memberId}` }, { lock: true });
  if (!member || member.erased_at) return [];
  const program = (await listPrograms(trx, place.chainId)).find((p) => p.id === member.program_id)!;
  const unit: CreditUnit | null = program.rules.type === 'cashback' ? 'amount' : program.rules.type === 'stamps' ? 'stamps' : null;
  if (!unit) return [];
  const credits = (await take(unit)).filter((c) => c.amount !== 0);
  if (!credits.length) return [];
  const read = await readTogether(trx, { held: repo.heldRead(trx, place.chainId, member.id, place.now), lots: lotsRepo.lotsRead(place.chainId, member.id) });
  const { lots } = settle({ ...member, held: read.held }, program, { venueId: place.venueId, zoneOf: () => place.timezone }, read.lots, place.now);
  const cashback = unit === 'amount' ? credits.reduce((sum, c) => sum + c.amount, 0) : 0;
  const day = venueDay(place.now, place.timezone);
  const write = lotsWrite(trx, place, member.id, lots, cashback > 0 ? [{ credit: cashback, day }] : cashback < 0 ? [{ debit: -cashback, day }] : [], request);
  const entries = credits.map((c) => ({
    memberId: member.id,
    kind: 'campaign',
    reason: c.name,
    reference: c.reference ?? null,
    campaignId: c.campaign_id,
    [unit === 'amount' ? 'cashback' : 'stamps']: c.amount,
  }));
  await writeTogether(trx, [...repo.ledgerSteps(trx, place.chainId, ledgerRows(place, [...write.entries, ...entries], place.now)), ...write.steps]);
  return credits;
}
