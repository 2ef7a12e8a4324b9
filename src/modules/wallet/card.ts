// What a member's card shows, wherever it is shown (D23): the Apple pass, the Google object and the guest's card
// page all take their figures, words and barcode from cardFace, so the three never disagree.
import type { Db } from '../../db/database.js';
import { formatMoney } from '../../shared/display.js';
import * as accounts from '../accounts/service.js';
import type { Caller } from '../accounts/schemas.js';
import type { Brand } from '../accounts/brand.js';
import * as members from '../members/service.js';

export interface CardFace {
  memberId: string;
  programId: string;
  /** The name guests see: the brand's, else the chain's. */
  name: string;
  brand: Brand;
  memberName: string | null;
  /** Balance in the chain's currency as the venue writes it, or stamps toward the next reward. */
  points: { label: 'Balance'; text: string } | { label: 'Stamps'; text: string; count: number };
  level: string | null;
  /** The card number, or the member's serial when they have none. */
  cardNumber: string;
  barcode: { kind: 'qr' | 'code128'; value: string };
}

export async function cardFace(db: Db, caller: Caller, memberId: string): Promise<CardFace> {
  const member = await members.getMember(db, caller, memberId);
  const [brand, chain] = await Promise.all([accounts.getBrand(db, caller.chainId), accounts.findChain(db, caller.chainId)]);
  const where = { currency: chain?.currency ?? 'EUR', locale: caller.venue?.locale ?? 'en' };
  return {
    memberId: member.id,
    programId: member.program_id,
    name: brand.displayName ?? chain?.name ?? 'Loyalty',
    brand,
    memberName: member.name,
    points: member.stamps
      ? { label: 'Stamps', text: `${member.stamps.count} / ${member.stamps.required}`, count: member.stamps.count }
      : { label: 'Balance', text: formatMoney(member.balance ?? 0, where) },
    level: member.level?.name ?? null,
    cardNumber: member.card_numbers[0] ?? member.serial,
    barcode: { kind: members.barcodeKind(member.barcode.format), value: member.barcode.value },
  };
}

/** The member's chain acting at their home venue (else the chain's first): how a pass or page with no API key reads them. */
export async function memberPlace(db: Db, chainId: string, homeVenueId: string | null, now: Date): Promise<Caller> {
  const chain = await accounts.findChain(db, chainId);
  const venue = await accounts.findVenue(db, homeVenueId ?? chain!.venues[0]!.id);
  return { ...accounts.ownerCaller(venue!), now };
}
