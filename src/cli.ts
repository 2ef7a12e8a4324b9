// Operator CLI (D18): venues, owners and keys against the same DATA_DIR / DATABASE_URL as the server.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { ValidateFunction } from 'ajv';
import type { Static, TSchema } from 'typebox';
import { BACKUP_COMMANDS } from './backup.js';
import { loadConfig } from './config.js';
import { ConfigError } from './shared/config-error.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { CreateIntegration, PROVIDERS, PROVIDER_SETTINGS, type Integration, type Provider } from './integrations/core/schemas.js';
import type { Db } from './db/database.js';
import { demoBanner, seedDemoIfEmpty } from './demo.js';
import { messageOf, paramOf, validatorCompiler } from './http/validation.js';
import { ROLES, type Caller, type Role } from './modules/accounts/schemas.js';
import * as accounts from './modules/accounts/service.js';
import { CLI } from './modules/audit/service.js';
import * as campaigns from './modules/campaigns/service.js';
import type { CategoryRules } from './modules/catalogue/schemas.js';
import * as catalogue from './modules/catalogue/service.js';
import { CategoryUpdate, NewApiKey, NewCategory, ProgramUpdate, VenueUpdate } from './dashboard/schemas.js';
import { addProgram, changeProgram, programOf } from './dashboard/service.js';
import { importFile } from './modules/members/bulk-import-file.js';
import { BatchFailed } from './modules/members/bulk-import.js';
import * as members from './modules/members/service.js';
import * as menu from './modules/menu/service.js';
import { BARCODE_FORMATS, PROGRAM_TYPES, type BarcodeFormat, type ProgramType } from './modules/programs/schemas.js';
import * as programs from './modules/programs/service.js';
import { systemClock } from './shared/clock.js';
import { ApiError } from './shared/errors.js';
import { openStorage, type Storage } from './server.js';

interface Command {
  usage: string;
  /** `multiple`: an option that may be given more than once; its values come in `lists`. */
  options?: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  /** The option that sets an API field (or a field's member, as `settings.access_token`), so an error's `param` can name what the operator typed. */
  optionOf?: Record<string, string>;
  /** Resolves to the exit code when it is not 0. */
  run(storage: Storage, values: Record<string, string | undefined>, positionals: string[], lists: Record<string, string[]>): Promise<void | number>;
}

class UsageError extends Error {}

const say = (line = '') => process.stdout.write(line + '\n');

async function venueOf(db: Db, ref: string | undefined): Promise<accounts.Venue> {
  if (ref) {
    const venue = await accounts.findVenue(db, ref);
    if (!venue) throw new UsageError(`No venue with id or slug "${ref}".`);
    return venue;
  }
  const venues = await accounts.listVenues(db);
  if (venues.length === 1) return venues[0]!;
  throw new UsageError(venues.length ? 'Several venues exist: pass --venue <id or slug>.' : 'No venue exists yet: run "venue create" first.');
}

/** Whose keys a key command means: the chain's own (--chain, D21) or a venue's. */
async function keyOwnerOf(db: Db, v: Record<string, string | undefined>): Promise<{ chainId: string; venueId: string | null; label: string }> {
  if (v.chain !== undefined) {
    if (v.venue !== undefined) throw new UsageError('Give --chain for a chain key or --venue for a venue key, not both.');
    const chain = await accounts.findChain(db, v.chain);
    if (!chain) throw new UsageError(`No chain with id or slug "${v.chain}".`);
    return { chainId: chain.id, venueId: null, label: `chain ${chain.slug}` };
  }
  const venue = await venueOf(db, v.venue);
  return { chainId: venue.chainId, venueId: venue.id, label: venue.slug };
}

/** The venue a user of `--chain` (its first venue) or `--venue` is let in at. */
async function userVenueOf(db: Db, v: Record<string, string | undefined>): Promise<accounts.Venue> {
  const at = await keyOwnerOf(db, v);
  return at.venueId ? venueOf(db, at.venueId) : venueOf(db, (await accounts.findChain(db, at.chainId))!.venues[0]!.id);
}

/** A dashboard user with `role`, the generated password (none given) shown once; recorded in the audit log. */
async function createUser(db: Db, venue: accounts.Venue, v: Record<string, string | undefined>, role: Role): Promise<void> {
  const password = v.password ?? randomBytes(12).toString('base64url');
  const user = await db.transaction().execute((trx) => accounts.addUser(trx, { chainId: venue.chainId, venueId: venue.id, email: required(v, 'email'), password, role }, CLI));
  say(`Created ${role} ${user.email} of ${venue.slug}.`);
  if (!v.password) say(`Password (shown once): ${password}`);
}

function roleOf(values: Record<string, string | undefined>): Role {
  const role = required(values, 'role');
  if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}.`);
  return role as Role;
}

const required = (values: Record<string, string | undefined>, name: string): string => {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required.`);
  return value;
};

function json(values: Record<string, string | undefined>, name: string, example: string): Record<string, unknown> | undefined {
  const text = values[name];
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Refused below, with an example.
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`--${name} must be a JSON object, for example '${example}'.`);
  return parsed as Record<string, unknown>;
}

/**
 * The body the dashboard would send, checked by the dashboard route's own schema and validator, so the CLI
 * refuses exactly what the API refuses, with its message and param.
 */
function asBody<S extends TSchema>(schema: S, body: Record<string, unknown>): Static<S> {
  const defined = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const validate = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '' }) as ValidateFunction;
  if (!validate(defined)) {
    const first = validate.errors?.[0];
    throw new ApiError('parameter_invalid', first ? { param: paramOf(first), message: messageOf(first, 'body') } : {});
  }
  return defined as Static<S>;
}

/** --earns, --payable and --percent as a category's money rules (only those given). */
function moneyRuleOptions(v: Record<string, string | undefined>): CategoryRules {
  const flag = (name: string) => {
    const value = v[name];
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') throw new UsageError(`--${name} must be true or false.`);
    return value === 'true';
  };
  const percent = v.percent === undefined ? undefined : v.percent === 'level' ? null : Number(v.percent);
  if (percent !== undefined && percent !== null && Number.isNaN(percent)) throw new UsageError('--percent must be a number or "level".');
  return { earns_cashback: flag('earns'), payable_with_cashback: flag('payable'), cashback_percent: percent };
}

const MONEY_RULE_OPTIONS = { earns: { type: 'string' }, payable: { type: 'string' }, percent: { type: 'string' } } as const;
const MONEY_RULE_FIELDS = { earns_cashback: 'earns', payable_with_cashback: 'payable', cashback_percent: 'percent' };
const SETTINGS_EXAMPLE = '{"levels":[{"name":"Bronze","min_spend":0,"percent":3}]}';
const RULES_EXAMPLE = '{"redeem_only_via_holds":true,"max_cashback_per_check":2000}';

function describeCategory(category: { name: string; earns_cashback: boolean; payable_with_cashback: boolean; cashback_percent: number | null }): string {
  return (
    `${category.name}: earns cashback ${category.earns_cashback ? 'yes' : 'no'}, payable with cashback ${category.payable_with_cashback ? 'yes' : 'no'}, ` +
    `percent ${category.cashback_percent ?? "the member's level"}.`
  );
}

/** The chain an integration command acts for, and the venue when it was named by --venue (or is the only one). */
interface IntegrationScope {
  chain: accounts.Chain;
  venue: accounts.Venue | null;
  /** The owner, acting as the CLI (audit actor `cli`): at the venue like a venue key, or chain-wide like a chain key. */
  caller: Caller;
  label: string;
}

async function integrationScopeOf(db: Db, v: Record<string, string | undefined>): Promise<IntegrationScope> {
  if (v.chain !== undefined && v.venue !== undefined) throw new UsageError('Give --chain C for the whole chain or --venue V for one venue, not both.');
  const venue = v.chain === undefined ? await venueOf(db, v.venue) : null;
  const chain = await accounts.findChain(db, venue?.chainId ?? v.chain!);
  if (!chain) throw new UsageError(`No chain with id or slug "${v.chain}".`);
  const first = chain.venues[0];
  if (!venue && !first) throw new UsageError(`Chain ${chain.slug} has no venue.`);
  const owner = accounts.ownerCaller(venue ?? first!);
  const caller: Caller = venue ? { ...owner, ...CLI } : { ...owner, keyVenueId: null, venueId: null, ...CLI };
  return { chain, venue, caller, label: venue ? venue.slug : `chain ${chain.slug}` };
}

/** Each provider's settings as options: the secrets are write-only (sealed, shown as …last4). */
const SETTING_OPTIONS: Record<string, string> = { access_token: 'access-token', webhook_signature_key: 'signature-key', api_key: 'api-key' };
const providerName = (provider: Provider) => provider[0]!.toUpperCase() + provider.slice(1);

/** `--location LOC=venue` (id or slug, of this chain) or, with a venue, `--location LOC` for that venue. */
async function locationsOf(db: Db, scope: IntegrationScope, given: string[]): Promise<Record<string, string>> {
  const locations = new Map<string, string>();
  for (const spec of given) {
    const eq = spec.indexOf('=');
    const location = (eq < 0 ? spec : spec.slice(0, eq)).trim();
    const ref = eq < 0 ? '' : spec.slice(eq + 1).trim();
    if (!location) throw new UsageError(`--location "${spec}" names no location: give --location LOC=<venue id or slug>.`);
    if (locations.has(location)) throw new UsageError(`--location ${location} is given twice.`);
    if (!ref) {
      if (!scope.venue) throw new UsageError(`--location ${location}: with --chain, name its venue: --location ${location}=<venue id or slug>.`);
      locations.set(location, scope.venue.id);
      continue;
    }
    const venue = await accounts.findVenue(db, ref);
    // A venue of another chain is one this chain does not have.
    if (!venue || venue.chainId !== scope.chain.id) throw new UsageError(`--location ${location}: no venue with id or slug "${ref}" in chain ${scope.chain.slug} (venue not found).`);
    if (scope.venue && venue.id !== scope.venue.id) {
      throw new UsageError(`--location ${location}: with --venue ${scope.venue.slug} a location maps to that venue only; give --chain ${scope.chain.slug} to map locations to several venues.`);
    }
    locations.set(location, venue.id);
  }
  return Object.fromEntries(locations);
}

/** The provider's locations → the slugs of the venues they are mapped to ("none" when nothing is mapped). */
function locationsText(i: Integration, chain: accounts.Chain): string {
  const slugOf = (id: string) => chain.venues.find((venue) => venue.id === id)?.slug ?? id;
  const sorted = Object.entries(i.locations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.map(([location, venueId]) => `${location} → ${slugOf(venueId)}`).join(', ') || 'none';
}

/** One line of `integration list`: id, provider, name, status, locations → venue slugs, failing since, the URL to paste. */
function integrationLine(i: Integration, chain: accounts.Chain): string {
  const failing = i.failing_since ? `failing since ${i.failing_since}` : 'not failing';
  return `${i.id}  ${i.provider}  ${i.name}  ${i.status}  locations: ${locationsText(i, chain)}  ${failing}  ${i.endpoint_url}`;
}

/** The masked settings as shown: a secret as …last4, never whole. */
const settingsText = (i: Integration) => Object.entries(i.settings).map(([k, val]) => `${k} ${val}`).join(', ');

/** A host the provider cannot call: localhost, or a loopback, private or link-local address. */
async function unreachableFromInternet(url: string): Promise<boolean> {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const { isPublicAddress } = await import('./modules/webhooks/special-addresses.js');
  const ipaddr = (await import('ipaddr.js')).default;
  return ipaddr.isValid(host) && !isPublicAddress(host);
}

/** Pause or resume a connection (`integration pause|resume <id>`), recorded in the audit log as the CLI's change. */
function statusCommand(status: 'paused' | 'active'): Command {
  const verb = status === 'paused' ? 'pause' : 'resume';
  return {
    usage:
      status === 'paused'
        ? 'integration pause <integration id> [--venue V | --chain C] [--json]   The provider is still answered; nothing is applied until "integration resume".'
        : 'integration resume <integration id> [--venue V | --chain C] [--json]   Applies what the provider sends again (what it sent while paused is not).',
    options: { venue: { type: 'string' }, chain: { type: 'string' }, json: { type: 'boolean' } },
    async run(storage, v, positionals) {
      const id = positionals[0];
      if (!id || positionals.length > 1) throw new UsageError(`Give the id of one connection: integration ${verb} <integration id> ("integration list" shows them).`);
      const db = storage.database.db;
      const scope = await integrationScopeOf(db, v);
      const service = await import('./integrations/core/service.js');
      const { openSecretBox } = await import('./shared/secret-box.js');
      const config = loadConfig();
      const before = await service.getIntegration(db, scope.caller, id, config.publicBaseUrl);
      const after =
        before.status === status
          ? before
          : await db.transaction().execute((trx) => service.updateIntegration(trx, scope.caller, id, { status }, openSecretBox(config), config.publicBaseUrl));
      if (v.json) {
        say(JSON.stringify(after, null, 2));
        return;
      }
      const what = `${after.provider} connection ${after.id} "${after.name}"`;
      if (before.status === status) say(`The ${what} is ${status === 'paused' ? 'paused' : 'active'} already; nothing changed.`);
      else if (status === 'paused') say(`Paused the ${what}: ${providerName(after.provider)} is still answered; nothing is applied until "integration resume ${after.id}".`);
      else say(`Resumed the ${what}: what ${providerName(after.provider)} sends is applied again.`);
    },
  };
}

const COMMANDS: Record<string, Command> = {
  migrate: {
    usage: 'migrate                          Apply pending database migrations (also done by npm start).',
    async run() {
      say('Database is migrated to the latest version.');
    },
  },
  demo: {
    usage: 'demo                             Create the demo venue (menu, tables, members), owner and test key if no venue exists.',
    async run(storage) {
      const demo = await seedDemoIfEmpty(storage.database.db, storage.pepper);
      say(demo ? demoBanner(demo, loadConfig().publicBaseUrl) : 'A venue exists already; nothing was seeded.');
    },
  },
  'venue create': {
    usage:
      'venue create --name N --slug S [--chain C] [--currency EUR] [--locale en-IE] [--timezone Europe/Dublin] [--country IE]   With --chain: joins chain C (id or slug) and counts in its currency; without: a new chain of one.',
    options: { name: { type: 'string' }, slug: { type: 'string' }, chain: { type: 'string' }, currency: { type: 'string' }, locale: { type: 'string' }, timezone: { type: 'string' }, country: { type: 'string' } },
    optionOf: { chainId: 'chain' },
    async run(storage, v) {
      const db = storage.database.db;
      const chain = v.chain === undefined ? undefined : await accounts.findChain(db, v.chain);
      if (v.chain !== undefined && !chain) throw new UsageError(`No chain with id or slug "${v.chain}".`);
      const venue = await accounts.createVenue(db, {
        name: required(v, 'name'),
        slug: required(v, 'slug'),
        chainId: chain?.id,
        currency: v.currency,
        locale: v.locale,
        timezone: v.timezone,
        country: v.country,
      });
      say(`Created venue ${venue.name} (slug ${venue.slug}, id ${venue.id}) in chain ${chain?.slug ?? venue.slug} (id ${venue.chainId}).`);
    },
  },
  'chain list': {
    usage: 'chain list                       One line per chain: id, slug, name, currency, its venues.',
    async run(storage) {
      for (const c of await accounts.listChains(storage.database.db)) {
        say(`${c.id}  ${c.slug}  ${c.name}  ${c.currency}  venues: ${c.venues.map((v) => v.slug).join(', ')}`);
      }
    },
  },
  'chain merge': {
    usage:
      'chain merge <venue> --into <chain>   The venue, the only one of its chain, joins chain <chain> (id or slug, same currency) with its members, balances, keys and history; every card, serial, phone, category or SKU clash is listed, exit 1, nothing changed (docs/chains.md).',
    options: { into: { type: 'string' } },
    async run(storage, v, positionals) {
      const ref = positionals[0];
      if (!ref || positionals.length > 1) throw new UsageError('Give one venue (id or slug): chain merge <venue> --into <chain>.');
      const into = required(v, 'into');
      // Loaded here, for this command only.
      const { conflictLine, mergeVenueIntoChain } = await import('./flows/chain-merge.js');
      const { openSecretBox } = await import('./shared/secret-box.js');
      const secrets = openSecretBox(loadConfig());
      const outcome = await storage.database.db
        .transaction()
        .execute((trx) => mergeVenueIntoChain(trx, secrets, ref, into))
        .catch((err: unknown) => {
          // A card or a venue arrived in one of the chains while the merge ran: the database refused, nothing moved.
          const code = (err as { code?: string }).code;
          if (code === '23505' || code === '23503') throw new UsageError(`The chains changed while merging (${(err as Error).message}); nothing was changed: run the merge again.`);
          throw err;
        });
      if (outcome.status === 'refused') throw new UsageError(`${outcome.reason} Nothing was changed.`);
      if (outcome.status === 'conflicts') {
        for (const c of outcome.conflicts) say(conflictLine(c, outcome.venue.slug, outcome.into.slug));
        say(`${outcome.conflicts.length} conflict${outcome.conflicts.length === 1 ? '' : 's'} between ${outcome.venue.slug} and chain ${outcome.into.slug}: nothing was changed. Resolve them and run the merge again.`);
        return 1;
      }
      const m = outcome.moved;
      say(
        `Merged venue ${outcome.venue.slug} into chain ${outcome.into.slug} (venues: ${outcome.into.venues.join(', ')}): ${m.members} members with ${m.member_cards} cards and ` +
          `${m.ledger_entries} ledger entries, ${m.programs} programs, ${m.transactions} transactions, ${m.api_keys} keys moved; chain ${outcome.from.slug} is deleted.`,
      );
      if (outcome.programNoLongerDefault) say(`Program ${outcome.programNoLongerDefault.id} "${outcome.programNoLongerDefault.name}" is no longer a default: the chain's default stays.`);
      if (outcome.foldedCategories.length) say(`Categories equal in both, kept once: ${outcome.foldedCategories.join(', ')}.`);
      if (outcome.foldedProducts.length) say(`Products equal in both, kept once: ${outcome.foldedProducts.join(', ')}.`);
      if (outcome.endpointsGivenToVenue.length) say(`Chain webhook endpoints now the venue's: ${outcome.endpointsGivenToVenue.join(', ')}.`);
      if (outcome.erasureKey === 'source') say(`Erased card numbers of ${outcome.from.slug} carried over with their key.`);
    },
  },
  'venue set': {
    usage:
      "venue set [--name N] [--currency C] [--locale L] [--timezone Z] [--country CC] [--rules '{json}'] [--venue V]   The venue and its default register rules (D12).",
    options: { venue: { type: 'string' }, name: { type: 'string' }, currency: { type: 'string' }, locale: { type: 'string' }, timezone: { type: 'string' }, country: { type: 'string' }, rules: { type: 'string' } },
    optionOf: { settings: 'rules' },
    async run(storage, v) {
      const db = storage.database.db;
      const body = asBody(VenueUpdate, {
        name: v.name,
        currency: v.currency,
        locale: v.locale,
        timezone: v.timezone,
        country: v.country,
        settings: json(v, 'rules', RULES_EXAMPLE),
      });
      const venue = await venueOf(db, v.venue);
      const updated = await db.transaction().execute((trx) => accounts.updateVenue(trx, venue.id, body, CLI));
      say(`Updated ${updated.slug}: ${updated.name}, ${updated.currency}, ${updated.locale}, ${updated.timezone}, ${updated.country}.`);
      say(`Register rules (keys without their own value follow them at once): ${JSON.stringify(updated.settings)}`);
    },
  },
  'venue list': {
    usage: 'venue list                       List venues.',
    async run(storage) {
      for (const v of await accounts.listVenues(storage.database.db)) say(`${v.id}  ${v.slug}  ${v.name}  ${v.currency}`);
    },
  },
  'program create': {
    usage:
      "program create --type cashback|stamps|visit_discount|vip --name N --settings '{json}' [--barcode qr_card_number|code128_card_number|qr_serial] [--default] [--venue V]",
    options: { venue: { type: 'string' }, type: { type: 'string' }, name: { type: 'string' }, settings: { type: 'string' }, barcode: { type: 'string' }, default: { type: 'boolean' } },
    async run(storage, v) {
      const type = required(v, 'type');
      if (!(PROGRAM_TYPES as readonly string[]).includes(type)) throw new UsageError(`--type must be one of ${PROGRAM_TYPES.join(', ')}.`);
      if (v.barcode && !(BARCODE_FORMATS as readonly string[]).includes(v.barcode)) throw new UsageError(`--barcode must be one of ${BARCODE_FORMATS.join(', ')}.`);
      required(v, 'settings');
      const settings = json(v, 'settings', SETTINGS_EXAMPLE)!;
      const venue = await venueOf(storage.database.db, v.venue);
      const input = { name: required(v, 'name'), type: type as ProgramType, settings, barcodeFormat: v.barcode as BarcodeFormat | undefined, isDefault: v.default === 'true' ? true : undefined };
      const program = await storage.database.db.transaction().execute((trx) => addProgram(trx, venue.chainId, input, CLI));
      say(`Created ${type} program ${program.id} "${program.name}" for ${venue.slug}${program.isDefault ? ' (the default)' : ''}.`);
    },
  },
  'program list': {
    usage: 'program list [--venue V]         Programs with their type and settings.',
    options: { venue: { type: 'string' } },
    async run(storage, v) {
      const venue = await venueOf(storage.database.db, v.venue);
      for (const p of await programs.listPrograms(storage.database.db, venue.chainId)) {
        const shown = programs.presentProgram(p);
        say(`${p.id}  ${shown.type}  ${p.name}${p.isDefault ? '  (default)' : ''}  ${JSON.stringify(shown.settings)}`);
      }
    },
  },
  'program update': {
    usage:
      "program update <program id> [--name N] [--settings '{json}'] [--barcode qr_card_number|code128_card_number|qr_serial] [--default] [--venue V]",
    options: { venue: { type: 'string' }, name: { type: 'string' }, settings: { type: 'string' }, barcode: { type: 'string' }, default: { type: 'boolean' } },
    optionOf: { barcode_format: 'barcode', is_default: 'default' },
    async run(storage, v, positionals) {
      const id = positionals[0];
      if (!id) throw new UsageError('Give the id of the program to change ("program list" shows them).');
      const db = storage.database.db;
      const body = asBody(ProgramUpdate, {
        name: v.name,
        settings: json(v, 'settings', SETTINGS_EXAMPLE),
        barcode_format: v.barcode,
        is_default: v.default === 'true' ? true : undefined,
      });
      const venue = await venueOf(db, v.venue);
      await programOf(db, venue.chainId, id);
      const program = await db.transaction().execute((trx) =>
        changeProgram(trx, venue.chainId, id, { name: body.name, settings: body.settings, barcodeFormat: body.barcode_format, isDefault: body.is_default }, new Date(), CLI),
      );
      const shown = programs.presentProgram(program);
      say(`Updated ${shown.type} program ${program.id} "${program.name}"${program.isDefault ? ' (the default)' : ''}: ${JSON.stringify(shown.settings)}`);
    },
  },
  'table create': {
    usage: 'table create --name "Table 4" [--code t4] [--venue V]   Prints the QR menu address of the table.',
    options: { venue: { type: 'string' }, name: { type: 'string' }, code: { type: 'string' } },
    async run(storage, v) {
      const venue = await venueOf(storage.database.db, v.venue);
      const table = await menu.createTable(storage.database.db, accounts.placeOf(venue), { name: required(v, 'name'), tableCode: v.code }, CLI);
      say(`Created ${table.name} (code ${table.tableCode}); its QR code points to ${loadConfig().publicBaseUrl}/m/${venue.slug}/${table.tableCode}`);
    },
  },
  'table list': {
    usage: 'table list [--venue V]           Tables with their QR menu addresses.',
    options: { venue: { type: 'string' } },
    async run(storage, v) {
      const venue = await venueOf(storage.database.db, v.venue);
      const base = loadConfig().publicBaseUrl;
      for (const t of await menu.listTables(storage.database.db, accounts.placeOf(venue))) say(`${t.tableCode}  ${t.name}  ${base}/m/${venue.slug}/${t.tableCode}`);
    },
  },
  'category create': {
    usage:
      'category create --category C --name N [--earns true|false] [--payable true|false] [--percent 7.5|level] [--venue V]   Or renames C.',
    options: { venue: { type: 'string' }, category: { type: 'string' }, name: { type: 'string' }, ...MONEY_RULE_OPTIONS },
    optionOf: { external_id: 'category', ...MONEY_RULE_FIELDS },
    async run(storage, v) {
      const db = storage.database.db;
      const { external_id, ...fields } = asBody(NewCategory, { external_id: required(v, 'category'), name: required(v, 'name'), ...moneyRuleOptions(v) });
      const venue = await venueOf(db, v.venue);
      const caller = { ...accounts.ownerCaller(venue), ...CLI };
      const category = await db.transaction().execute((trx) =>
        catalogue.putCategoryWithRules(trx, caller, external_id, fields as { name: string } & CategoryRules),
      );
      say(`Category ${category.external_id}: ${describeCategory(category)}`);
    },
  },
  'category rules': {
    usage:
      'category rules --category C [--earns true|false] [--payable true|false] [--percent 7.5|level] [--venue V] [--venue-only | --chain-rule]   The chain\'s rule; --venue-only: venue V\'s own rule, which wins there; --chain-rule: V follows the chain\'s again.',
    options: { venue: { type: 'string' }, category: { type: 'string' }, 'venue-only': { type: 'boolean' }, 'chain-rule': { type: 'boolean' }, ...MONEY_RULE_OPTIONS },
    optionOf: { external_id: 'category', ...MONEY_RULE_FIELDS },
    async run(storage, v) {
      const db = storage.database.db;
      const rules = asBody(CategoryUpdate, { ...moneyRuleOptions(v) });
      const venue = await venueOf(db, v.venue);
      const category = required(v, 'category');
      if (v['venue-only'] && v['chain-rule']) throw new UsageError('Give --venue-only or --chain-rule, not both.');
      if (v['chain-rule']) {
        await db.transaction().execute((trx) => catalogue.clearVenueCategoryRules(trx, accounts.placeOf(venue), category, CLI));
        say(`${venue.slug} follows the chain's rule for ${category} again.`);
        return;
      }
      const changed = await db.transaction().execute((trx) =>
        v['venue-only'] ? catalogue.setVenueCategoryRules(trx, accounts.placeOf(venue), category, rules, CLI) : catalogue.setCategoryRules(trx, venue.chainId, category, rules, CLI),
      );
      const own = changed.venue_rules.find((r) => r.venue_id === venue.id);
      say(own ? `At ${venue.slug} (its own rule): ${describeCategory({ ...own, name: changed.name })}` : describeCategory(changed));
    },
  },
  'owner create': {
    usage: 'owner create --email E [--password P] [--venue V]   A password is generated when none is given.',
    options: { venue: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' } },
    async run(storage, v) {
      await createUser(storage.database.db, await venueOf(storage.database.db, v.venue), v, 'owner');
    },
  },
  'user create': {
    usage: 'user create --email E --role owner|manager|staff [--password P] [--venue V | --chain C]   A dashboard user of the chain; a password is generated when none is given.',
    options: { venue: { type: 'string' }, chain: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' }, password: { type: 'string' } },
    async run(storage, v) {
      await createUser(storage.database.db, await userVenueOf(storage.database.db, v), v, roleOf(v));
    },
  },
  'user invite': {
    usage: 'user invite --email E --role owner|manager|staff [--venue V | --chain C]   Prints a single-use link (7 days) that lets them choose a password.',
    options: { venue: { type: 'string' }, chain: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
    async run(storage, v) {
      const role = roleOf(v);
      const venue = await userVenueOf(storage.database.db, v);
      const where = { chainId: venue.chainId, venueId: venue.id, at: new Date(), ...CLI };
      const { link, token } = await storage.database.db.transaction().execute((trx) => accounts.inviteUser(trx, where, { email: required(v, 'email'), role }));
      say(`Invited ${link.email} as ${role} of ${venue.slug}, until ${link.expiresAt.toISOString()}.`);
      say(`Link (shown once; pass it on): ${accounts.linkUrl(loadConfig().publicBaseUrl, token)}`);
    },
  },
  'user reset-password': {
    usage: 'user reset-password --email E   Prints a single-use link (24 hours) that lets the user choose a new password.',
    options: { email: { type: 'string' } },
    async run(storage, v) {
      const db = storage.database.db;
      const user = await accounts.findOwnerByEmail(db, required(v, 'email'));
      if (!user) throw new UsageError(`No dashboard user with e-mail ${v.email}.`);
      const where = { chainId: user.chainId, venueId: user.venueId, at: new Date(), ...CLI };
      const { token } = await db.transaction().execute((trx) => accounts.passwordResetFor(trx, where, user));
      say(`Link for ${user.email} (shown once; valid 24 hours): ${accounts.linkUrl(loadConfig().publicBaseUrl, token)}`);
    },
  },
  'user list': {
    usage: "user list [--venue V | --chain C]   The chain's dashboard users: e-mail, role, when added.",
    options: { venue: { type: 'string' }, chain: { type: 'string' } },
    async run(storage, v) {
      const venue = await userVenueOf(storage.database.db, v);
      for (const u of await accounts.listUsers(storage.database.db, venue.chainId)) say(`${u.id}  ${u.role.padEnd(7)}  ${u.email}`);
    },
  },
  'key create': {
    usage:
      "key create [--venue V | --chain C] [--mode test|live] [--scopes a,b] [--name N] [--rules '{json}']   Prints the secret once; --chain: a chain key, which names venue_id on calls made at a venue.",
    options: { venue: { type: 'string' }, chain: { type: 'string' }, mode: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' }, rules: { type: 'string' } },
    optionOf: { livemode: 'mode' },
    async run(storage, v) {
      const mode = v.mode ?? 'test';
      if (mode !== 'test' && mode !== 'live') throw new UsageError('--mode must be test or live.');
      const body = asBody(NewApiKey, {
        name: v.name ?? `${mode} key`,
        livemode: mode === 'live',
        scopes: v.scopes ? v.scopes.split(',').map((s) => s.trim()).filter(Boolean) : [],
        rules: json(v, 'rules', RULES_EXAMPLE),
      });
      const owner = await keyOwnerOf(storage.database.db, v);
      const { key, secret } = await accounts.createApiKey(storage.database.db, storage.pepper, {
        ...(owner.venueId === null ? { chainId: owner.chainId } : { venueId: owner.venueId }),
        ...body,
        name: body.name.trim(),
        by: CLI,
      });
      const rules = Object.keys(key.rules).length ? `, its own rules ${JSON.stringify(key.rules)}` : '';
      say(`Created ${mode} key ${key.id} "${key.name}" for ${owner.label} with ${key.scopes.length ? key.scopes.join(', ') : 'full access'}${rules}.`);
      say('Secret (shown once, store it now):');
      say(secret);
    },
  },
  'key list': {
    usage: 'key list [--venue V | --chain C] Keys with their prefix, scopes, last use and revocation (--chain: the chain keys).',
    options: { venue: { type: 'string' }, chain: { type: 'string' } },
    async run(storage, v) {
      for (const k of await accounts.listApiKeys(storage.database.db, await keyOwnerOf(storage.database.db, v))) {
        const state = k.revokedAt ? `revoked ${k.revokedAt}` : 'active';
        const rules = Object.keys(k.rules).length ? `  rules ${JSON.stringify(k.rules)}` : '';
        say(`${k.id}  ${k.prefix}…  ${k.name}  ${k.scopes.join(',') || 'full access'}${rules}  last used ${k.lastUsedAt ?? 'never'}  ${state}`);
      }
    },
  },
  'members import': {
    usage:
      'members import FILE [--venue V] [--program ID] [--report FILE]   Members from CSV or JSON Lines (docs/members.md); bad lines to the report.',
    options: { venue: { type: 'string' }, program: { type: 'string' }, report: { type: 'string' } },
    optionOf: { program_id: 'program' },
    async run(storage, v, positionals) {
      const file = positionals[0];
      if (!file || !existsSync(file)) throw new UsageError(file ? `No file ${file}.` : 'Give the file to import (CSV or JSON Lines).');
      const db = storage.database.db;
      const venue = await venueOf(db, v.venue);
      const target = { chainId: venue.chainId, venueId: venue.id, livemode: true, programId: v.program, country: venue.country, reference: basename(file) };
      const done = await importFile(db, target, file, { clock: systemClock, report: v.report ?? `${file}.errors.csv` }).catch((err: unknown) => {
        // The database refused a batch for a reason no line check foresaw: say which lines, not a stack.
        if (err instanceof BatchFailed) throw new UsageError(err.message);
        throw err;
      });
      const rate = Math.round(done.lastLine / Math.max(done.seconds, 0.001));
      say(`${done.imported} members imported, ${done.skipped} already there skipped, ${done.failed} bad lines in ${done.seconds.toFixed(1)} s (${rate} lines/s).`);
      if (done.failed) say(`Bad lines, each with its line number and reason: ${done.report}`);
      return done.failed ? 1 : 0;
    },
  },
  'ledger verify': {
    usage: 'ledger verify [--venue V]        Recompute every member\'s totals, level spend and campaign\'s spent (of the venue\'s chain) from the ledger and checks; exit 1 on any difference.',
    options: { venue: { type: 'string' } },
    async run(storage, v) {
      const db = storage.database.db;
      const venue = v.venue ? await venueOf(db, v.venue) : undefined;
      const differences = await members.verifyTotals(db, venue?.chainId);
      for (const d of differences) say(`${d.chain_id}  member ${d.member_id}  ${d.field}: stored ${d.stored}, ledger ${d.ledger}`);
      say(differences.length ? `${differences.length} totals differ from the ledger.` : 'Every member\'s totals equal the ledger.');
      const spent = await campaigns.verifySpent(db, venue?.chainId);
      for (const d of spent) say(`${d.chain_id}  campaign ${d.campaign_id}  spent: stored ${d.stored}, ledger ${d.ledger}`);
      if (spent.length) say(`${spent.length} campaigns' spent differ from the ledger.`);
      const levels = await members.levelSpendDifferences(db, new Date(), venue?.chainId);
      for (const d of levels) say(`${d.chain_id}  member ${d.member_id}  level_spend: stored ${d.stored}, checks in the window ${d.checks}`);
      if (levels.length) say(`${levels.length} members' level spend differ from their checks in the level window.`);
      return differences.length || spent.length || levels.length ? 1 : 0;
    },
  },
  'key revoke': {
    usage: 'key revoke <key id> [--venue V | --chain C]  Takes effect on the next request.',
    options: { venue: { type: 'string' }, chain: { type: 'string' } },
    async run(storage, v, positionals) {
      const keyId = positionals[0];
      if (!keyId) throw new UsageError('Give the id of the key to revoke.');
      const db = storage.database.db;
      const owner = await keyOwnerOf(db, v);
      if (!(await accounts.listApiKeys(db, owner)).some((k) => k.id === keyId)) throw new UsageError(`${owner.label} has no key ${keyId}.`);
      const key = (await db.transaction().execute((trx) => accounts.revokeApiKey(trx, { chainId: owner.chainId, keyId, at: new Date(), by: CLI })))!;
      say(`Revoked key ${key.id} (${key.prefix}…).`);
    },
  },
  'integration list': {
    usage:
      'integration list [--venue V | --chain C] [--json]   Point-of-sale connections (docs/integrations.md), one a line: id, provider, name, status, locations → venues, failing since, the URL to paste into the provider; --json: as the API shows them.',
    options: { venue: { type: 'string' }, chain: { type: 'string' }, json: { type: 'boolean' } },
    async run(storage, v) {
      const db = storage.database.db;
      const scope = await integrationScopeOf(db, v);
      const service = await import('./integrations/core/service.js');
      const base = loadConfig().publicBaseUrl;
      const all: Integration[] = [];
      for (let page = { limit: 100, startingAfter: undefined as string | undefined }; ; ) {
        const list = await service.listIntegrations(db, scope.caller, page, base);
        all.push(...list.data);
        if (!list.has_more || !list.data.length) break;
        page = { ...page, startingAfter: list.data.at(-1)!.id };
      }
      if (v.json) say(JSON.stringify(all, null, 2));
      else for (const i of all) say(integrationLine(i, scope.chain));
    },
  },
  'integration create': {
    usage:
      'integration create --provider square --access-token T [--signature-key K] [--location LOC=V ...] [--name N] [--venue V | --chain C] [--json]   ' +
      "Connects a point-of-sale provider (Toast: --provider toast --api-key K) and prints the URL to paste into it; secrets are never shown again but as their last four characters. --location maps the provider's location LOC to venue V (id or slug, of the chain); with --venue, --location LOC maps it to that venue; none: nothing mapped yet.",
    options: {
      venue: { type: 'string' },
      chain: { type: 'string' },
      provider: { type: 'string' },
      name: { type: 'string' },
      location: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      ...Object.fromEntries(Object.values(SETTING_OPTIONS).map((o) => [o, { type: 'string' as const }])),
    },
    optionOf: { locations: 'location', ...Object.fromEntries(Object.entries(SETTING_OPTIONS).map(([k, o]) => [`settings.${k}`, o])) },
    async run(storage, v, _positionals, lists) {
      const provider = required(v, 'provider');
      if (!(PROVIDERS as readonly string[]).includes(provider)) throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')}.`);
      const own = PROVIDER_SETTINGS[provider as Provider];
      const settings: Record<string, string> = {};
      for (const [setting, option] of Object.entries(SETTING_OPTIONS)) {
        if (v[option] === undefined) continue;
        if (!([...own.secret, ...own.plain] as string[]).includes(setting)) throw new UsageError(`--${option} is not a setting of a ${provider} connection.`);
        settings[setting] = v[option];
      }
      const missing = own.required.filter((setting) => !settings[setting]).map((setting) => `--${SETTING_OPTIONS[setting]}`);
      if (missing.length) throw new UsageError(`A ${provider} connection needs ${missing.join(' and ')}.`);
      const db = storage.database.db;
      const scope = await integrationScopeOf(db, v);
      const body = asBody(CreateIntegration, { provider, name: v.name, locations: await locationsOf(db, scope, lists.location ?? []), settings });
      const service = await import('./integrations/core/service.js');
      const { openSecretBox } = await import('./shared/secret-box.js');
      const config = loadConfig();
      const box = openSecretBox(config);
      const created = await db.transaction().execute((trx) => service.createIntegration(trx, scope.caller, body, box, config.publicBaseUrl));
      const shown = providerName(created.provider);
      if (await unreachableFromInternet(config.publicBaseUrl)) {
        process.stderr.write(
          `Warning: PUBLIC_BASE_URL is ${config.publicBaseUrl}, which ${shown} cannot reach: set PUBLIC_BASE_URL to the public address ${shown} calls (a tunnel in development) ` +
            'and paste the URL "integration list" then shows.\n',
        );
      }
      if (v.json) {
        say(JSON.stringify(created, null, 2));
        return;
      }
      say(`Created ${created.provider} connection ${created.id} "${created.name}" for ${scope.label}: ${created.status}.`);
      say(`Locations: ${locationsText(created, scope.chain)}`);
      say(`Settings: ${settingsText(created)}`);
      say(`Paste into ${shown}${created.provider === 'square' ? " (the webhook subscription's URL)" : ''}: ${created.endpoint_url}`);
    },
  },
  'integration pause': statusCommand('paused'),
  'integration resume': statusCommand('active'),
};

function help(): string {
  return ['Usage: npm run cli -- <command> [options]', '', 'Commands:', ...[...Object.values(COMMANDS), ...Object.values(BACKUP_COMMANDS)].map((c) => `  ${c.usage}`)].join('\n');
}

async function main(argv: string[]): Promise<number> {
  // Backup and restore open no storage here: a running server holds the embedded directory and makes the copy.
  const alone = BACKUP_COMMANDS[argv[0] ?? ''];
  if (alone) {
    if (argv.includes('--help')) {
      say(`Usage: npm run cli -- ${alone.usage}`);
      return 0;
    }
    return alone.runAlone(loadConfig(), argv.slice(1));
  }
  const name = [argv.slice(0, 2).join(' '), argv[0] ?? ''].find((n) => COMMANDS[n]);
  if (!name) {
    say(help());
    return argv.length === 0 || argv[0] === '--help' || argv[0] === 'help' ? 0 : 2;
  }
  const command = COMMANDS[name]!;
  const rest = argv.slice(name.split(' ').length);
  if (rest.includes('--help')) {
    say(`Usage: npm run cli -- ${command.usage}`);
    return 0;
  }
  const { values, positionals } = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true });
  const storage = await openStorage(loadConfig(), 'cli');
  try {
    const given = Object.entries(values);
    const asText = Object.fromEntries(given.filter(([, val]) => !Array.isArray(val)).map(([k, val]) => [k, val === undefined ? undefined : String(val)]));
    const lists = Object.fromEntries(given.filter(([, val]) => Array.isArray(val)).map(([k, val]) => [k, (val as unknown[]).map(String)]));
    return (await command.run(storage, asText, positionals, lists)) ?? 0;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    process.stderr.write(`${apiErrorText(err, command)}\n`);
    return 2;
  } finally {
    await storage.close();
  }
}

/** The API's message, and the field it concerns as the API names it (with the option that sets it, when one does). */
function apiErrorText(err: ApiError, command: Command): string {
  if (err.param === undefined) return err.message;
  const field = err.param.split(/[.[]/)[0]!;
  const option = command.optionOf?.[err.param] ?? command.optionOf?.[field] ?? (command.options?.[field] ? field : undefined);
  return `${err.message} (param: ${err.param}${option ? `; option --${option}` : ''})`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    const known = err instanceof UsageError || err instanceof ConfigError || err instanceof DataDirInUseError;
    process.stderr.write(known ? `${err.message}\n` : `${(err as Error).stack ?? err}\n`);
    if ((err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') process.stderr.write(`${help()}\n`);
    process.exit(known ? 2 : 1);
  },
);
