// The one Database factory: embedded PGlite in a data directory by default, PostgreSQL when a URL is given.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect, sql, type KyselyConfig } from 'kysely';
import pg from 'pg';
import { AfterBegin, PreparedQuery, type RowShapes } from './prepared-query.js';
import type { DB } from './schema.js';

export type Db = Kysely<DB>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Subscribes to NOTIFY on a channel; `onReset` runs when notifications may have been missed. */
  listen(channel: string, onPayload: (payload: string) => void, onReset: () => void): Promise<void>;
  /** The embedded database's directory as a gzipped tar (PGlite only; src/backup.ts). */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

export type DatabaseSource =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

// int8 (counts, money sums) as numbers: money stays far below 2^53 minor units. A date (a venue day) stays the
// 'YYYY-MM-DD' it is: read as a Date it would be midnight in this process's time zone, not the venue's.
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? Number : oid === pg.types.builtins.DATE ? String : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
const pgliteParsers = { [pg.types.builtins.DATE]: (value: string) => value };

/**
 * What else opening may do: `onQuery` sees every statement sent through Kysely with its parameters; `onRoundTrip`
 * (PostgreSQL) sees the first statement of each round trip to the server (tests read them).
 */
export interface DatabaseOptions {
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
  onRoundTrip?: (sql: string) => void;
}

export async function openDatabase(source: DatabaseSource, options: DatabaseOptions = {}): Promise<Database> {
  return source.kind === 'postgres' ? openPostgres(source.url, source.poolSize ?? 10, options) : openPglite(source, options);
}

function logOption({ onQuery }: DatabaseOptions): Pick<KyselyConfig, 'log'> {
  if (!onQuery) return {};
  return {
    log(event) {
      if (event.level === 'query') onQuery(event.query.sql, event.query.parameters);
    },
  };
}

/**
 * An embedded database with the extensions the migrations create (pg_trgm and unaccent, for the member search of
 * migration 0039): every PGlite that opens our data directory must load them.
 */
export async function createPglite(source: { dataDir?: string; loadDataDir?: Blob } = {}) {
  const [{ PGlite }, { pg_trgm }, { unaccent }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/unaccent'),
  ]);
  return PGlite.create({ dataDir: source.dataDir, loadDataDir: source.loadDataDir, parsers: pgliteParsers, extensions: { pg_trgm, unaccent } });
}

async function openPglite(source: { dataDir?: string; loadDataDir?: Blob }, options: DatabaseOptions): Promise<Database> {
  if (source.dataDir) mkdirSync(source.dataDir, { recursive: true });
  // Loaded only for the embedded database: a PostgreSQL process need not carry it.
  const [pglite, { PGliteDialect }] = await Promise.all([createPglite(source), import('kysely-pglite-dialect')]);
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite), ...logOption(options) });
  return {
    db,
    kind: 'pglite',
    async listen(channel, onPayload) {
      await pglite.listen(channel, onPayload);
    },
    async dumpDataDir() {
      // On the one connection, so no transaction is open; the checkpoint writes every change to the data files, and
      // PGlite reads the files in one synchronous pass, so no statement runs in between.
      return db.connection().execute(async (conn) => {
        await sql`checkpoint`.execute(conn);
        return pglite.dumpDataDir('gzip');
      });
    },
    async close() {
      await db.destroy();
    },
  };
}

/**
 * Statements longer than this, or with more values, are not prepared by name: their text varies with a row count.
 * A check's write with an Idempotency-Key and two bonus campaigns sends 121 values; each campaign adds about ten.
 */
const PREPARED_TEXT_LIMIT = 8000;
const PREPARED_VALUES_LIMIT = 200;

/**
 * A pg client that prepares each parameterised statement once per connection, under a name derived from its
 * text, so PostgreSQL parses and plans it once instead of on every request. Kysely's SQL text never holds the
 * values, so the code bounds the set of texts; bulk statements, whose text grows with their rows, stay unnamed.
 *
 * A transaction's BEGIN waits for its first statement and goes out with it, in one write and one round trip (issue
 * 21): the server runs BEGIN, then the statement, as if each had been sent alone. A transaction that sent nothing
 * sends no BEGIN, COMMIT or ROLLBACK either.
 */
class PreparingClient extends pg.Client {
  /** A migration changed a table under a prepared statement: forget them all as soon as no transaction is open. */
  private stalePlans = false;
  /** Kysely sent BEGIN; it has not gone to the server yet. */
  private beginWaiting = false;
  /**
   * A BEGIN went out and no COMMIT or ROLLBACK since. The server's own status cannot tell this right after a failed
   * statement sent with BEGIN: pg reports the error before the ReadyForQuery that says the transaction is open.
   */
  private blockOpen = false;
  private readonly onRoundTrip: ((sql: string) => void) | undefined;
  /** The columns of the statements prepared on this connection (src/db/prepared-query.ts). */
  private readonly rowShapes: RowShapes = new Map();

  constructor(config: pg.ClientConfig & { onRoundTrip?: (sql: string) => void } = {}) {
    super(config);
    this.onRoundTrip = config.onRoundTrip;
  }

  // Kysely calls query(text, values); every other form goes through unchanged.
  override query(text: any, values?: any, callback?: any): any {
    if (!(typeof text === 'string' && Array.isArray(values) && callback === undefined)) return super.query(text, values, callback);
    const bare = values.length === 0;
    const ends = bare && (text === 'commit' || text === 'rollback');
    if (this.beginWaiting && ends) {
      this.beginWaiting = false;
      return Promise.resolve(nothingSent());
    }
    if (bare && text === 'begin' && !this.beginWaiting && this.outsideTransaction()) {
      this.beginWaiting = true;
      return Promise.resolve(nothingSent());
    }
    // A statement without values may go by the simple protocol (a long migration text, perhaps several statements),
    // which cannot follow BEGIN in one batch: BEGIN goes alone before it.
    const withBegin = this.beginWaiting && !bare;
    const beginFirst = this.beginWaiting && bare ? this.send('begin', []) : Promise.resolve();
    this.beginWaiting = false;
    // COMMIT and ROLLBACK are still in the transaction they end: they close it once answered, failed or not.
    if (ends) return this.send(text, values).finally(() => (this.blockOpen = false));
    return beginFirst.then(() => this.send(text, values, withBegin));
  }

  private outsideTransaction(): boolean {
    return !this.blockOpen && this.getTransactionStatus() === 'I';
  }

  private send(text: string, values: unknown[], withBegin = false): Promise<pg.QueryResult> {
    const named = values.length <= PREPARED_VALUES_LIMIT && text.length <= PREPARED_TEXT_LIMIT;
    const config = { name: named ? statementName(text) : undefined, text, values };
    const run = (): Promise<pg.QueryResult> => {
      if (withBegin || text === 'begin') this.blockOpen = true;
      if (withBegin) return this.sendAfterBegin(config);
      this.onRoundTrip?.(text);
      return named ? this.submit(PreparedQuery, config) : super.query(text, values);
    };
    if (!named) return run();
    const ready = this.stalePlans && this.outsideTransaction() ? this.forgetPlans() : Promise.resolve();
    return ready.then(run).catch(async (err: unknown) => {
      if (!isStalePlan(err)) throw err;
      this.stalePlans = true;
      // Inside a transaction the error has failed it, and inTransaction runs it again; outside one, run it again here.
      if (!this.outsideTransaction()) throw err;
      await this.forgetPlans();
      return run();
    });
  }

  /**
   * BEGIN and the statement in one write, up to one Sync: its answers are BEGIN's and the statement's, the second is
   * returned. A statement not yet parsed on this connection is sent after a BEGIN of its own: pg would count it as
   * parsed on BEGIN's ParseComplete, and a failed parse would then never be sent again.
   */
  private sendAfterBegin(config: { name: string | undefined; text: string; values: unknown[] }): Promise<pg.QueryResult> {
    const parsed = (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
    if (config.name !== undefined && parsed[config.name] !== config.text) {
      this.onRoundTrip?.('begin');
      return super.query('begin').then(() => {
        this.onRoundTrip?.(config.text);
        return this.submit(PreparedQuery, config);
      });
    }
    this.onRoundTrip?.(`begin; ${config.text}`);
    return this.submit(AfterBegin, config);
  }

  /** Runs one of our pg queries; its answer is its statement's (after BEGIN's, for AfterBegin). */
  private submit(query: typeof PreparedQuery, config: { name: string | undefined; text: string; values: unknown[] }): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) => {
      const callback = (err: Error | null, result: pg.QueryResult | pg.QueryResult[]) => (err ? reject(err) : resolve(Array.isArray(result) ? result.at(-1)! : result));
      super.query(new query({ ...config, shapes: this.rowShapes, callback }) as unknown as pg.Submittable);
    });
  }

  // pg forgets them only once the server has: pg thinking one unprepared that the server still holds would fail every
  // later use of it with 42P05 on this connection.
  private async forgetPlans(): Promise<void> {
    this.onRoundTrip?.('deallocate all');
    await super.query('deallocate all');
    this.stalePlans = false;
    this.rowShapes.clear();
    const connection = (this as unknown as { connection: { parsedStatements: object; submittedNamedStatements?: object } }).connection;
    connection.parsedStatements = {};
    if (connection.submittedNamedStatements) connection.submittedNamedStatements = {};
  }
}

/** What Kysely reads of a BEGIN, COMMIT or ROLLBACK that did not need sending. */
const nothingSent = () => ({ command: '', rowCount: null, rows: [], fields: [] });

/**
 * PostgreSQL cannot be reached, is shutting down or starting, or dropped the connection (a restart, a failover): the
 * request was not done and may be retried, so it is answered 503, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}

// Named one by one, not by class: 08P01 (protocol violation) is in class 08 but is a bug, answered 500.
// 08000, 08003, 08006: connection exception, does not exist, failure; 08001, 08004: could not connect, server
// rejected it; 57P01-03: admin shutdown, crash shutdown, cannot connect now (starting up); 53300: too many
// connections. The rest are the socket's and the name look-up's (ENOTFOUND, EAI_AGAIN: DNS down or the name gone).
const UNAVAILABLE_CODES = new Set([
  '08000', '08003', '08006', '08001', '08004',
  '57P01', '57P02', '57P03', '53300',
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
]);
// pg's own errors for a connection lost or a pool that could not connect in time.
const UNAVAILABLE_MESSAGE = /^Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect/;

/**
 * PostgreSQL's refusal of a prepared statement whose table a migration has changed since (a rolling deploy): the
 * statement is prepared again and the work run again.
 */
export function isStalePlan(err: unknown): boolean {
  const { code, message } = err as { code?: string; message?: string };
  return code === '0A000' && /cached plan must not change result type/.test(message ?? '');
}

/** How long the pool waits for a connection (a new one, or a free one when all are busy) before giving up. */
export const CONNECT_TIMEOUT_MS = 5000;

// Hashing a text on every statement showed in profiles (issue 21): each text's name is worked out once. The texts are
// the code's shapes (at most PREPARED_TEXT_LIMIT long), a few hundred; the bound only guards against a runaway.
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_LIMIT = 5000;

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= STATEMENT_NAMES_LIMIT) statementNames.clear();
    name = `vl_${createHash('sha1').update(text).digest('base64url')}`;
    statementNames.set(text, name);
  }
  return name;
}

async function openPostgres(url: string, poolSize: number, options: DatabaseOptions): Promise<Database> {
  // A server that accepts connections but never answers (hung, a half-open network path) must not hold requests
  // forever: connecting gives up after CONNECT_TIMEOUT_MS (answered 503), and TCP keep-alive finds dead peers.
  const clients: pg.PoolConfig & { onRoundTrip?: (sql: string) => void } = {
    connectionString: url,
    max: poolSize,
    types: pgTypes,
    Client: PreparingClient,
    onRoundTrip: options.onRoundTrip,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  };
  const pool = new pg.Pool(clients);
  // An idle connection the server dropped (restart, failover) is discarded by the pool and replaced on the
  // next query; without a listener the event would crash the process.
  pool.on('error', (err) => process.emitWarning(`PostgreSQL dropped an idle connection: ${err.message}`));
  // A connection in use (a transaction between two statements) has no pool listener: when the server goes away, its
  // error reaches the statement that uses it, and the pool discards it on release; as an unhandled 'error' event it
  // would end the process (seen in the soak's PostgreSQL restart).
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), ...logOption(options) });
  await sql`select 1`.execute(db);
  const listeners: pg.Client[] = [];
  let closing = false;

  async function connectListener(channel: string, onPayload: (p: string) => void, onReset: () => void) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    listeners.push(client);
    const reconnect = () => {
      listeners.splice(listeners.indexOf(client), 1);
      client.end().catch(() => {});
      if (closing) return;
      onReset();
      setTimeout(() => connectListener(channel, onPayload, onReset).catch(reconnect), 1000).unref();
    };
    client.on('error', reconnect);
    client.on('notification', (msg) => {
      if (msg.channel === channel) onPayload(msg.payload ?? '');
    });
    await client.connect();
    await client.query(`listen ${client.escapeIdentifier(channel)}`);
    // Anything sent while we were not listening is unknown to us.
    onReset();
  }

  return {
    db,
    kind: 'postgres',
    listen: connectListener,
    async close() {
      closing = true;
      await Promise.all(listeners.map((c) => c.end().catch(() => {})));
      await db.destroy();
    },
  };
}
