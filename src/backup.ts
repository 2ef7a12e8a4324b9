// Backup and restore of the embedded database (DATA_DIR, a small venue's only copy), the server's side included.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import type { Config } from './config.js';
import { claimDataDir, DataDirInUseError, isAlive } from './db/data-dir-lock.js';
import { openDatabase, type Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import * as members from './modules/members/service.js';

/**
 * A running server holds DATA_DIR, so the CLI asks it for the copy: it writes `<id>.request` (the file to write)
 * into this folder, the server takes it (deletes it) within POLL_MS, writes the dump, then `<id>.answer`.
 * Files, not a signal: a process that does not answer (an older version) is not killed by one it does not handle.
 */
const REQUESTS = 'backup-requests';
const POLL_MS = 500;
const PICKUP_TIMEOUT_MS = 15_000;
const DUMP_TIMEOUT_MS = 10 * 60_000;
/** Files in DATA_DIR that belong to the process holding it, not to the data; a restore drops them from the copy. */
const PROCESS_FILES = ['in-use.pid', REQUESTS];

/** A refusal the operator can act on: printed without a stack, exit 2. */
class BackupRefusal extends Error {}

/**
 * The holder's side (src/server.ts installs it for PGlite): takes requests one at a time and writes the
 * database's dump where each asks. Returns the stop function, which waits for a dump under way.
 */
export function answerBackupRequests(dataDir: string, dump: () => Promise<Blob>): () => Promise<void> {
  const folder = path.join(dataDir, REQUESTS);
  let current: Promise<void> | undefined;
  const timer = setInterval(() => {
    current ??= answerPending(folder, dump).finally(() => (current = undefined));
  }, POLL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await current;
  };
}

async function answerPending(folder: string, dump: () => Promise<Blob>): Promise<void> {
  const pending = existsSync(folder) ? readdirSync(folder).filter((n) => n.endsWith('.request')) : [];
  for (const name of pending) {
    const request = path.join(folder, name);
    let to: string;
    try {
      to = (JSON.parse(readFileSync(request, 'utf8')) as { to: string }).to;
      // Taken: the CLI sees it was picked up, and the dump does not carry it.
      rmSync(request);
    } catch {
      continue; // withdrawn meanwhile
    }
    let answer: { ok: true } | { error: string };
    try {
      if (!path.isAbsolute(to) || !to.endsWith('.partial')) throw new Error(`refusing to write ${to}: not a backup's partial file`);
      // The copy holds every member and the key pepper: readable by its owner only; never over an existing file.
      writeFileSync(to, Buffer.from(await (await dump()).arrayBuffer()), { mode: 0o600, flag: 'wx' });
      answer = { ok: true };
    } catch (err) {
      answer = { error: (err as Error).message };
    }
    writeAtomically(path.join(folder, name.replace(/\.request$/, '.answer')), JSON.stringify(answer));
  }
}

function writeAtomically(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/** The CLI's side while a server holds the directory: ask it, wait for its answer. */
async function askHolder(dataDir: string, holder: number, to: string): Promise<void> {
  const folder = path.join(dataDir, REQUESTS);
  mkdirSync(folder, { recursive: true });
  const id = randomUUID();
  const request = path.join(folder, `${id}.request`);
  const answer = path.join(folder, `${id}.answer`);
  writeAtomically(request, JSON.stringify({ to }));
  const pickedUpBy = Date.now() + PICKUP_TIMEOUT_MS;
  while (existsSync(request)) {
    if (Date.now() > pickedUpBy) {
      rmSync(request, { force: true });
      throw new BackupRefusal(
        `Process ${holder} holds ${dataDir} but did not take the backup request within ${PICKUP_TIMEOUT_MS / 1000} s ` +
          '(is it a Venue Loyalty server of this version?). Stop it and run the backup again: the CLI then reads the directory itself.',
      );
    }
    await sleep(100);
  }
  const doneBy = Date.now() + DUMP_TIMEOUT_MS;
  while (!existsSync(answer)) {
    if (!isAlive(holder)) throw new BackupRefusal(`Process ${holder} ended before it finished the backup; nothing was written.`);
    if (Date.now() > doneBy) throw new BackupRefusal(`Process ${holder} did not finish the backup within ${DUMP_TIMEOUT_MS / 60_000} minutes.`);
    await sleep(100);
  }
  const result = JSON.parse(readFileSync(answer, 'utf8')) as { ok?: true; error?: string };
  rmSync(answer);
  if (result.error !== undefined) throw new BackupRefusal(`The server could not write the backup: ${result.error}`);
}

/** The CLI's side when no process holds the directory: it opens the database itself. */
async function dumpItself(dataDir: string, to: string): Promise<void> {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  try {
    writeFileSync(to, Buffer.from(await (await database.dumpDataDir!()).arrayBuffer()), { mode: 0o600 });
  } finally {
    await database.close();
  }
}

/**
 * The names in a backup (a gzipped tar of the data directory), or a refusal: gzip's CRC catches a damaged or
 * truncated file, and a tar without PG_VERSION is no PostgreSQL data directory.
 */
function backupEntries(bytes: Buffer, file: string): string[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes);
  } catch (err) {
    throw new BackupRefusal(`${file} is not a Venue Loyalty backup, or it is damaged (${(err as Error).message}).`);
  }
  const names: string[] = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (start: number, end: number) => header.toString('utf8', start, end).replace(/\0.*$/s, '').trim();
    names.push(field(0, 100).replace(/^\/+/, ''));
    at += 512 + Math.ceil(Number.parseInt(field(124, 136) || '0', 8) / 512) * 512;
  }
  if (!names.includes('PG_VERSION')) throw new BackupRefusal(`${file} holds no database directory (no PG_VERSION): not a Venue Loyalty backup.`);
  return names;
}

interface Contents {
  venues: number;
  members: number;
  ledgerEntries: number;
  migrated: string[];
}

async function countContents(db: Db, migrated: string[]): Promise<Contents> {
  const { rows } = await sql<{ venues: number; members: number; ledger_entries: number }>`
    select (select count(*) from venues)::int as venues, (select count(*) from members)::int as members,
           (select count(*) from ledger_entries)::int as ledger_entries`.execute(db);
  const row = rows[0]!;
  return { venues: row.venues, members: row.members, ledgerEntries: row.ledger_entries, migrated };
}

/** Unpacks the backup into `staging` and proves it a working database: it opens, migrates, and its ledger adds up. */
async function loadAndVerify(staging: string, bytes: Buffer, file: string, config: Config): Promise<Contents> {
  let contents: Contents;
  try {
    const database = await openDatabase({ kind: 'pglite', dataDir: staging, loadDataDir: new Blob([new Uint8Array(bytes)], { type: 'application/x-gzip' }) });
    try {
      const migrated = await migrateToLatest(database.db);
      const differences = await members.verifyTotals(database.db);
      if (differences.length) {
        throw new BackupRefusal(`In ${file}, ${differences.length} member totals differ from the ledger ("ledger verify" lists them once restored).`);
      }
      contents = await countContents(database.db, migrated);
    } finally {
      await database.close();
    }
  } catch (err) {
    if (err instanceof BackupRefusal) throw err;
    throw new BackupRefusal(`${file} could not be opened as a database: ${(err as Error).message}`);
  }
  if (!config.apiKeyPepper && !existsSync(path.join(staging, 'api-key-pepper'))) {
    throw new BackupRefusal(`${file} has no api-key-pepper file: every API key would stop working. Set API_KEY_PEPPER to the pepper in use, or use a complete backup.`);
  }
  return contents;
}

const POSTGRES_TOOLS =
  'On PostgreSQL (DATABASE_URL is set) the database is backed up with its own tools: ' +
  'pg_dump --format=custom --file=FILE "$DATABASE_URL" for a copy, pg_restore to load one, and WAL archiving for ' +
  'point-in-time recovery; see docs/deploy.md#8-backups-of-postgresql. The backup and restore commands are for the embedded database (DATA_DIR).';

async function backup(config: Config, file: string): Promise<void> {
  const dataDir = path.resolve(config.dataDir);
  const target = path.resolve(file);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) throw new BackupRefusal(`${dataDir} (DATA_DIR) holds no embedded database to back up.`);
  if (!path.relative(dataDir, target).startsWith('..')) {
    throw new BackupRefusal(`Write the backup outside ${dataDir} (DATA_DIR): a copy inside it would be lost with it.`);
  }
  const partial = `${target}.partial`;
  let release: (() => void) | undefined;
  let holder: number | undefined;
  try {
    release = claimDataDir(dataDir, 'backup');
  } catch (err) {
    if (!(err instanceof DataDirInUseError)) throw err;
    holder = err.holder;
  }
  try {
    rmSync(partial, { force: true });
    if (holder === undefined) await dumpItself(dataDir, partial);
    else await askHolder(dataDir, holder, partial);
    const entries = backupEntries(readFileSync(partial), partial).length;
    renameSync(partial, target);
    const by = holder === undefined ? '' : `, taken by the running server (process ${holder})`;
    process.stdout.write(`Backed up ${dataDir} to ${target}: ${statSync(target).size} bytes, ${entries} files${by}.\n`);
  } finally {
    rmSync(partial, { force: true });
    release?.();
  }
}

async function restore(config: Config, file: string): Promise<void> {
  const dataDir = path.resolve(config.dataDir);
  const source = path.resolve(file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(source);
  } catch (err) {
    throw new BackupRefusal(`Cannot read ${source}: ${(err as Error).message}`);
  }
  backupEntries(bytes, source);
  let release: (() => void) | undefined;
  try {
    release = claimDataDir(dataDir, 'restore');
  } catch (err) {
    if (!(err instanceof DataDirInUseError)) throw err;
    throw new BackupRefusal(
      `Restore needs the server stopped: process ${err.holder} holds ${dataDir}. Stop it (SIGTERM), run restore again, then start it. Nothing was changed.`,
    );
  }
  const staging = `${dataDir}.restoring-${process.pid}`;
  try {
    rmSync(staging, { recursive: true, force: true });
    const contents = await loadAndVerify(staging, bytes, source, config);
    for (const name of PROCESS_FILES) rmSync(path.join(staging, name), { recursive: true, force: true });
    // The old directory is kept, renamed, never deleted; our claim (its in-use.pid) leaves with it.
    const onlyOurClaim = readdirSync(dataDir).every((n) => n === 'in-use.pid');
    const aside = onlyOurClaim ? undefined : `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    if (aside) renameSync(dataDir, aside);
    else rmSync(dataDir, { recursive: true });
    release();
    release = undefined;
    if (aside) rmSync(path.join(aside, 'in-use.pid'), { force: true });
    try {
      renameSync(staging, dataDir);
    } catch (err) {
      if (aside) renameSync(aside, dataDir);
      throw err;
    }
    const say = (line: string) => process.stdout.write(`${line}\n`);
    say(`Restored ${source} into ${dataDir}: ${contents.venues} venues, ${contents.members} members, ${contents.ledgerEntries} ledger entries; every member's totals equal the ledger.`);
    if (contents.migrated.length) say(`Migrated the restored database: ${contents.migrated.join(', ')}.`);
    say(aside ? `The previous data directory is kept at ${aside}; delete it once the restored data is checked.` : 'There was no previous data directory.');
  } finally {
    rmSync(staging, { recursive: true, force: true });
    release?.();
  }
}

/** A command that reaches the database its own way: src/cli.ts opens no storage for it. */
export interface StandaloneCommand {
  usage: string;
  /** Resolves to the exit code. */
  runAlone(config: Config, positionals: string[]): Promise<number>;
}

function standalone(usage: string, run: (config: Config, file: string) => Promise<void>): StandaloneCommand {
  return {
    usage,
    async runAlone(config, [file]) {
      try {
        if (config.databaseUrl) throw new BackupRefusal(POSTGRES_TOOLS);
        if (!file) throw new BackupRefusal(`Give the file: npm run cli -- ${usage}`);
        await run(config, file);
        return 0;
      } catch (err) {
        if (!(err instanceof BackupRefusal)) throw err;
        process.stderr.write(`${err.message}\n`);
        return 2;
      }
    },
  };
}

export const BACKUP_COMMANDS: Record<string, StandaloneCommand> = {
  backup: standalone(
    'backup FILE                      Copy the embedded database (DATA_DIR) to FILE, also while the server runs.',
    backup,
  ),
  restore: standalone(
    'restore FILE                     Replace DATA_DIR by a backup (server stopped); the old directory is kept aside.',
    restore,
  ),
};
