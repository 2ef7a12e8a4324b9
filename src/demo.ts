// First run (D18): an empty database gets a demo chain of two venues sharing their members (D21, D25), its owner and a
// test key, once.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './db/database.js';
import * as accounts from './modules/accounts/service.js';
import type { PlaceCaller } from './modules/accounts/schemas.js';
import { SYSTEM } from './modules/audit/service.js';
import * as campaigns from './modules/campaigns/service.js';
import * as catalogue from './modules/catalogue/service.js';
import { applyCheck } from './flows/checks/apply.js';
import * as members from './modules/members/service.js';
import * as menu from './modules/menu/service.js';
import * as orders from './modules/orders/service.js';
import * as programs from './modules/programs/service.js';
import { systemClock } from './shared/clock.js';

export interface DemoVenue {
  /** The chain's first venue, where the owner signs in and the test key belongs. */
  venue: accounts.Venue;
  /** The second venue of the same chain, where members of the first one come too. */
  quay: accounts.Venue;
  ownerEmail: string;
  ownerPassword: string;
  testKey: string;
  tables: { name: string; tableCode: string }[];
  quayTables: { name: string; tableCode: string }[];
}

export async function seedDemoIfEmpty(db: Db, pepper: string): Promise<DemoVenue | undefined> {
  return db.transaction().execute(async (trx) => {
    // Two processes starting together on one PostgreSQL must not both seed.
    await sql`select pg_advisory_xact_lock(hashtext('venue-loyalty:demo-seed'))`.execute(trx);
    if ((await accounts.listVenues(trx)).length > 0) return undefined;
    const venue = await accounts.createVenue(trx, {
      name: 'Demo Café',
      slug: 'demo',
      settings: { manual_adjustments_allowed: true },
    });
    const quay = await accounts.createVenue(trx, {
      name: 'Demo Café Quay',
      slug: 'demo-quay',
      chainId: venue.chainId,
      settings: { manual_adjustments_allowed: true },
    });
    const ownerEmail = 'owner@demo.test';
    const ownerPassword = randomBytes(12).toString('base64url');
    await accounts.createOwner(trx, { chainId: venue.chainId, venueId: venue.id, email: ownerEmail, password: ownerPassword });
    const { secret } = await accounts.createApiKey(trx, pepper, { venueId: venue.id, name: 'Demo till', livemode: false, by: SYSTEM });
    const enrolled = await seedDemoVenue(trx, venue);
    await seedQuay(trx, quay, enrolled);
    return { venue, quay, ownerEmail, ownerPassword, testKey: secret, tables: DEMO_TABLES, quayTables: QUAY_TABLES };
  });
}

export function demoBanner(demo: DemoVenue, baseUrl: string): string {
  return [
    '',
    'Welcome to Venue Loyalty. A demo chain of two venues sharing their members was created; these secrets are shown only now:',
    `  Venue:          ${demo.venue.name} (slug ${demo.venue.slug}, id ${demo.venue.id})`,
    `  Second venue:   ${demo.quay.name} (slug ${demo.quay.slug}, id ${demo.quay.id}); switch to it in the dashboard's header`,
    `  Owner sign-in:  ${demo.ownerEmail} / ${demo.ownerPassword}  (${baseUrl}/dashboard)`,
    `  Test API key:   ${demo.testKey}  (${demo.venue.name}'s)`,
    '',
    `  QR menus:       ${demo.tables.map((t) => `${baseUrl}/m/${demo.venue.slug}/${t.tableCode} (${t.name})`).join(', ')}`,
    `                  ${demo.quayTables.map((t) => `${baseUrl}/m/${demo.quay.slug}/${t.tableCode} (${t.name})`).join(', ')}`,
    '',
    `  Try it:  curl -H "Authorization: Bearer ${demo.testKey}" ${baseUrl}/api/v1/account`,
    `  API reference: ${baseUrl}/api/docs`,
    '',
  ].join('\n');
}

/** The demo's categories: one earns its own percent, one neither earns nor can be paid with cashback. */
const DEMO_CATEGORIES = [
  { external_id: 'coffee', name: 'Coffee', cashback_percent: 10 },
  { external_id: 'food', name: 'Food' },
  { external_id: 'wine', name: 'Wine and beer', earns_cashback: false, payable_with_cashback: false },
] as const;

type DemoCategory = (typeof DEMO_CATEGORIES)[number]['external_id'];

/** One list for the menu (dishes, which guests order) and the catalogue (products, which checks resolve by SKU). */
const DEMO_MENU: { sku: string; name: string; category: DemoCategory; price: number; available?: false; description?: string }[] = [
  { sku: 'FLAT-WHITE', name: 'Flat white', category: 'coffee', price: 380 },
  { sku: 'CAPPUCCINO', name: 'Cappuccino', category: 'coffee', price: 360 },
  { sku: 'ESPRESSO', name: 'Espresso', category: 'coffee', price: 280 },
  { sku: 'SCONE', name: 'Fruit scone', category: 'food', price: 350, description: 'With butter and jam' },
  { sku: 'TOASTIE', name: 'Ham and cheese toastie', category: 'food', price: 850 },
  { sku: 'CHOWDER', name: 'Seafood chowder', category: 'food', price: 1_250, available: false, description: 'Sold out today' },
  { sku: 'HOUSE-RED', name: 'House red (glass)', category: 'wine', price: 750 },
  { sku: 'STOUT', name: 'Stout (pint)', category: 'wine', price: 620 },
];

const DEMO_TABLES = [
  { name: 'Table 1', tableCode: 't1' },
  { name: 'Window 2', tableCode: 't2' },
];

const QUAY_TABLES = [{ name: 'Terrace 1', tableCode: 'q1' }];

const DEMO_MEMBERS = [
  { name: 'Aoife Murphy', card: 'DEMO-0001', phone: '+353871000001', spend: 12_450, cashback: 373 },
  { name: 'Ciarán Kelly', card: 'DEMO-0002', phone: '+353871000002', spend: 61_200, cashback: 2_410 },
  { name: 'Niamh Walsh', card: 'DEMO-0003', phone: '+353871000003', spend: 184_990, cashback: 9_875 },
  { name: 'Seán Byrne', card: 'DEMO-0004', phone: null, spend: 0, cashback: 0 },
  { name: 'Emma Doyle', card: 'DEMO-0005', phone: '+353871000005', spend: 4_800, cashback: 144 },
];

const line = (sku: string, quantity = 1) => {
  const item = DEMO_MENU.find((d) => d.sku === sku)!;
  return { sku, name: item.name, quantity, unit_price: item.price };
};

/** A check a till sent some days ago (0: a minute ago), paying `redeem` of it with cashback. */
interface DemoVisit {
  card: string;
  daysAgo: number;
  lines: ReturnType<typeof line>[];
  redeem?: number;
}

/**
 * A week of checks at the first venue: coffee at its own 10 %, wine earning nothing, some paid partly with cashback,
 * on every day, so the overview's chart has a week to show.
 */
const DEMO_WEEK: DemoVisit[] = [
  { card: 'DEMO-0001', daysAgo: 6, lines: [line('FLAT-WHITE', 2), line('SCONE'), line('HOUSE-RED')] },
  { card: 'DEMO-0003', daysAgo: 6, lines: [line('CAPPUCCINO'), line('TOASTIE')] },
  { card: 'DEMO-0002', daysAgo: 5, lines: [line('TOASTIE', 2), line('CAPPUCCINO', 2)], redeem: 500 },
  { card: 'DEMO-0004', daysAgo: 4, lines: [line('ESPRESSO'), line('SCONE')] },
  { card: 'DEMO-0003', daysAgo: 3, lines: [line('ESPRESSO'), line('STOUT', 2)] },
  { card: 'DEMO-0001', daysAgo: 2, lines: [line('FLAT-WHITE'), line('TOASTIE')] },
  { card: 'DEMO-0002', daysAgo: 1, lines: [line('CAPPUCCINO'), line('SCONE', 2)] },
  { card: 'DEMO-0003', daysAgo: 0, lines: [line('FLAT-WHITE', 2), line('TOASTIE', 2)], redeem: 600 },
  { card: 'DEMO-0004', daysAgo: 0, lines: [line('ESPRESSO', 2)] },
];

/** QR orders on the board: one waiting with the guest's note, one the staff accepted (the second). */
const DEMO_ORDERS = [
  { table_code: 't1', items: [{ external_id: 'FLAT-WHITE', quantity: 2 }, { external_id: 'SCONE', quantity: 1 }], comment: 'One flat white with oat milk, please' },
  { table_code: 't2', items: [{ external_id: 'TOASTIE', quantity: 1 }, { external_id: 'CAPPUCCINO', quantity: 1 }] },
];

/** The visits as checks the venue's till sent, each at this time of day some days back (never in the server's future). */
async function seedVisits(trx: Db, caller: PlaceCaller, prefix: string, visits: DemoVisit[], enrolled: Map<string, string>): Promise<void> {
  // No scan rule at the demo venues, so the scan window is never consulted.
  const ctx = { clock: systemClock, scanWindowSeconds: 0 };
  const now = systemClock.now().getTime();
  let n = 0;
  for (const v of visits) {
    if (!enrolled.has(v.card)) throw new Error(`demo: ${v.card} is not a demo member`);
    const closedAt = v.daysAgo === 0 ? new Date(now - 60_000 * (visits.length - n)) : new Date(now - v.daysAgo * 86_400_000);
    const check = { external_id: `${prefix}-${++n}`, card_number: v.card, closed_at: closedAt.toISOString(), line_items: v.lines };
    await applyCheck(trx, caller, v.redeem ? { ...check, redeem_amount: v.redeem } : check, ctx, null);
  }
}

/**
 * The first venue, with something on every page: a three-level cashback program, categories with their own rules, a menu
 * with a stop-listed dish, two tables for the QR page with two guests' orders on the board, and members whose history
 * has an import from a previous system, a week of checks and an owner's adjustment. Everything goes through the
 * services the API and dashboard use, as the test key's traffic (livemode false), so the dashboard shows it apart
 * from live figures.
 */
async function seedDemoVenue(trx: Db, venue: accounts.Venue): Promise<Map<string, string>> {
  await programs.createProgram(trx, venue.chainId, {
    name: 'Demo Café Rewards',
    type: 'cashback',
    settings: {
      levels: [
        { name: 'Bronze', min_spend: 0, percent: 3 },
        { name: 'Silver', min_spend: 50_000, percent: 5 },
        { name: 'Gold', min_spend: 150_000, percent: 7 },
      ],
      max_redeem_percent: 50,
    },
  });
  const caller = { ...accounts.ownerCaller(venue), livemode: false };
  for (const { external_id, ...category } of DEMO_CATEGORIES) await catalogue.putCategoryWithRules(trx, caller, external_id, category);
  const categoryName = (id: DemoCategory) => DEMO_CATEGORIES.find((c) => c.external_id === id)!.name;
  await menu.syncDishes(trx, caller, {
    items: DEMO_MENU.map(({ sku, category, ...dish }) => ({ external_id: sku, category: categoryName(category), ...dish })),
  });
  await catalogue.syncProducts(trx, caller, { items: DEMO_MENU.map(({ sku, name, category, price }) => ({ sku, name, category, price })) });
  for (const table of DEMO_TABLES) await menu.createTable(trx, accounts.placeOf(venue), table, SYSTEM);

  const enrolled = new Map<string, string>();
  for (const m of DEMO_MEMBERS) {
    const member = await members.enrolMember(trx, caller, { card_number: m.card, consent: true, name: m.name, phone: m.phone ?? undefined }, null);
    enrolled.set(m.card, member.id);
    if (m.spend || m.cashback) {
      await members.appendLedger(trx, caller, [
        { memberId: member.id, kind: 'import', spend: m.spend, cashback: m.cashback, reason: 'Imported from the previous loyalty system' },
      ]);
    }
  }
  await seedVisits(trx, caller, 'DEMO-CHECK', DEMO_WEEK, enrolled);
  const placed = [];
  for (const order of DEMO_ORDERS) placed.push(await orders.placeOrder(trx, venue.slug, order));
  await orders.moveOrder(trx, caller, placed[1]!.id, { status: 'accepted' });
  await members.adjustBalance(trx, caller, enrolled.get('DEMO-0005')!, { amount: 250, reason: 'Birthday treat' }, null, systemClock);
  // Campaigns (D22) to show on their page: a welcome left paused (scripts that enrol with the demo key see plain
  // balances until the owner resumes it), and a birthday treat for members who give their birthday.
  const chainWide = { ...caller, keyVenueId: null };
  const welcome = await campaigns.createCampaign(trx, chainWide, { name: 'Welcome bonus', type: 'welcome', amount: 200, budget: 50_000 });
  await campaigns.updateCampaign(trx, chainWide, welcome.id, { status: 'paused' });
  await campaigns.createCampaign(trx, chainWide, { name: 'Birthday coffee', type: 'birthday', amount: 350 });
  return enrolled;
}

/**
 * The quay: the same menu and catalogue (the chain's), a table, and a week of checks by members who enrolled at the first
 * venue: they earn and spend their one balance here too. Test traffic, so the overview's test figures per venue show it.
 */
async function seedQuay(trx: Db, quay: accounts.Venue, enrolled: Map<string, string>): Promise<void> {
  const caller = { ...accounts.ownerCaller(quay), livemode: false };
  await menu.syncDishes(trx, caller, {
    items: DEMO_MENU.map(({ sku, category, ...dish }) => ({ external_id: sku, category: DEMO_CATEGORIES.find((c) => c.external_id === category)!.name, ...dish })),
  });
  for (const table of QUAY_TABLES) await menu.createTable(trx, accounts.placeOf(quay), table, SYSTEM);
  const visits: DemoVisit[] = [
    { card: 'DEMO-0002', daysAgo: 6, lines: [line('FLAT-WHITE'), line('SCONE')] },
    { card: 'DEMO-0003', daysAgo: 5, lines: [line('TOASTIE'), line('CAPPUCCINO')] },
    { card: 'DEMO-0001', daysAgo: 4, lines: [line('ESPRESSO', 2)] },
    { card: 'DEMO-0003', daysAgo: 3, lines: [line('TOASTIE', 2), line('FLAT-WHITE', 2)], redeem: 400 },
    { card: 'DEMO-0002', daysAgo: 2, lines: [line('CAPPUCCINO'), line('STOUT')] },
    { card: 'DEMO-0004', daysAgo: 1, lines: [line('FLAT-WHITE'), line('SCONE')] },
    { card: 'DEMO-0002', daysAgo: 0, lines: [line('TOASTIE'), line('FLAT-WHITE')], redeem: 300 },
    { card: 'DEMO-0003', daysAgo: 0, lines: [line('CAPPUCCINO', 2)] },
  ];
  await seedVisits(trx, caller, 'QUAY-CHECK', visits, enrolled);
}
