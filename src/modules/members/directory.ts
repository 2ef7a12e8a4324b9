// The members directory (D27): one list for the API and the dashboard, searched by name, card, phone or e-mail,
// filtered by program, level, home venue and last visit, sorted, and paged by keyset.
import type { Db } from '../../db/database.js';
import { ApiError } from '../../shared/errors.js';
import { checkCursor, type List, type Page } from '../../shared/pagination.js';
import type { Caller } from '../accounts/schemas.js';
import type { ProgramInfo } from '../programs/schemas.js';
import * as expiry from './expiry-service.js';
import * as directory from './directory-repo.js';
import * as repo from './repo.js';
import { SEARCH_MAX_LENGTH, type Member } from './schemas.js';
import { normaliseEmail, normalisePhone } from './service.js';
import { lotPlace, programsById } from './settled.js';
import { presentMember } from './view.js';

export type { MemberSort } from './directory-repo.js';

export interface DirectoryQuery {
  q?: string;
  sort?: directory.MemberSort;
  level?: string;
  program_id?: string;
  phone?: string;
  livemode?: boolean;
  venue_id?: string;
  last_visit_after?: string;
  last_visit_before?: string;
}

export async function listMembers(db: Db, caller: Caller, page: Page, query: DirectoryQuery): Promise<List<Member>> {
  await checkCursor(page, (id) => repo.memberExists(db, caller.chainId, id));
  const programs = await programsById(db, caller.chainId);
  const { ids, records } = await pageOf(db, caller, programs, filterOf(caller, programs, query), page);
  // From the ids: a member of the page erased between the two reads leaves it one short, not the last page.
  return { object: 'list', url: '/v1/members', has_more: ids.length > page.limit, data: records.slice(0, page.limit).map((r) => presentMember(r, programs.get(r.program_id)!, caller.venue)) };
}

/** The columns of a members file (bulk-import-read.ts), so an export is a file the import reads. */
const CSV_COLUMNS = ['card_number', 'phone', 'email', 'name', 'consent_date', 'opening_balance', 'total_spend', 'visits', 'stamps'] as const;
const CSV_PAGE = 1_000;

/**
 * The directory's members as a members file, in its order, read a page at a time as the download is written (never
 * the whole chain in memory): a member's first card (else serial), balances in minor units, as the import reads them.
 */
export async function membersCsv(db: Db, caller: Caller, query: DirectoryQuery, line: (fields: (string | number | null)[]) => string): Promise<AsyncGenerator<string>> {
  // Judged before the download starts: a refused filter is an error answer, not a broken file.
  const programs = await programsById(db, caller.chainId);
  const filter = filterOf(caller, programs, query);
  return (async function* () {
    yield line([...CSV_COLUMNS]);
    let startingAfter: string | undefined;
    for (;;) {
      const { ids, records } = await pageOf(db, caller, programs, filter, { limit: CSV_PAGE, startingAfter });
      const onThisPage = new Set(ids.slice(0, CSV_PAGE));
      for (const r of records.filter((r) => onThisPage.has(r.id))) {
        const day = r.consented_at.toISOString().slice(0, 10);
        yield line([r.card_numbers[0] ?? r.serial, r.phone, r.email, r.name, day, r.cashback, r.spend, r.visits, r.stamps]);
      }
      if (ids.length <= CSV_PAGE) return;
      startingAfter = ids[CSV_PAGE - 1]!;
    }
  })();
}

function filterOf(caller: Caller, programs: Map<string, ProgramInfo>, query: DirectoryQuery): directory.MemberFilter {
  // A venue key reads the whole chain's members, but filters by no other venue than its own (D21).
  if (query.venue_id !== undefined && caller.keyVenueId !== null && query.venue_id !== caller.keyVenueId) throw new ApiError('venue_not_allowed', { param: 'venue_id' });
  return {
    programId: query.program_id,
    phone: query.phone === undefined ? undefined : normalisePhone(query.phone, caller.venue.country),
    livemode: query.livemode,
    homeVenueId: query.venue_id,
    levels: query.level === undefined ? undefined : levelBands([...programs.values()], query.level),
    lastVisitAfter: query.last_visit_after === undefined ? undefined : new Date(query.last_visit_after),
    lastVisitBefore: query.last_visit_before === undefined ? undefined : new Date(query.last_visit_before),
    search: searchOf(query.q, caller.venue.country),
    sort: query.sort ?? 'newest',
  };
}

/** One page's ids (limit + 1) and their member records in the directory's order, settled as of the caller's now (expiry). */
async function pageOf(db: Db, caller: Caller, programs: Map<string, ProgramInfo>, filter: directory.MemberFilter, page: Page): Promise<{ ids: string[]; records: repo.MemberRecord[] }> {
  const ids = await directory.listMemberIds(db, caller.chainId, filter, page);
  const records = await repo.findMembers(db, caller.chainId, caller.now, { by: 'ids', ids }, ids.length, await expiry.venueExpires(db, caller.chainId));
  const byId = new Map(records.map((r) => [r.id, r]));
  // findMembers reads newest first; the page keeps the directory's order.
  const settled = ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [expiry.settle(r, programs.get(r.program_id)!, lotPlace(caller), r.lots, caller.now).record] : [];
  });
  return { ids, records: settled };
}

/**
 * What a search term looks for: the term itself as a card number or serial, as a phone number or an e-mail address
 * when it reads as one, and its words in names. Any text is a term (an empty answer at worst); control characters,
 * which PostgreSQL's text cannot hold (NUL) or no name has, are dropped.
 */
export function searchOf(q: string | undefined, country: string): directory.Search | undefined {
  // eslint-disable-next-line no-control-regex
  const term = q?.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  if (!term) return undefined;
  // Counted in characters, as the schema counts them (an emoji is one).
  if ([...term].length > SEARCH_MAX_LENGTH) throw new ApiError('parameter_invalid', { param: 'q', message: `q is at most ${SEARCH_MAX_LENGTH} characters.` });
  return {
    code: term,
    phone: /^[+\d][\d\s().-]{5,}$/.test(term) ? unlessInvalid(() => normalisePhone(term, country)) : undefined,
    email: term.includes('@') ? unlessInvalid(() => normaliseEmail(term)) : undefined,
    words: term.split(/\s+/),
  };
}

const unlessInvalid = (read: () => string): string | undefined => {
  try {
    return read();
  } catch (err) {
    if (err instanceof ApiError) return undefined;
    throw err;
  }
};

/**
 * The level `name` as bands of level spend, one per program that has a level of that name (levels are each
 * program's own): from its minimum to the next level's. A VIP program's hand-set level wins over the spend.
 */
export function levelBands(programs: ProgramInfo[], name: string): directory.LevelBand[] {
  return programs.flatMap((p) => {
    const rules = p.rules;
    if (rules.type !== 'cashback' && rules.type !== 'vip') return [];
    // Every level of that name: nothing stops a program naming two alike (Club at 0 and at 500).
    return rules.levels.flatMap((level, at) =>
      level.name !== name
        ? []
        : [
            {
              programId: p.id,
              spendColumn: rules.levelPeriodDays === undefined ? ('spend' as const) : ('level_spend' as const),
              // The first level is also everyone's below it (levelAt).
              min: at === 0 ? null : level.minSpend,
              below: rules.levels[at + 1]?.minSpend ?? null,
              ...(rules.type === 'vip' ? { vipLevel: { name, names: rules.levels.map((l) => l.name) } } : {}),
            },
          ],
    );
  });
}
