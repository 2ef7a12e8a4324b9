// The pg queries of a statement prepared by name: its rows' columns described once per connection, and BEGIN sent with it.
import pg from 'pg';

/** What pg's Result keeps of a RowDescription: the columns and the parser of each. */
interface RowShape {
  fields: unknown[];
  _parsers: unknown[];
  _prebuiltEmptyResultObject: object;
}

/** Per connection, per statement name: the columns it answers with, as read from its first RowDescription. */
export type RowShapes = Map<string, RowShape>;

interface ProtocolConnection {
  parse(message: { text: string; name: string; types: unknown[] }): void;
  bind(message: object): void;
  execute(message: object): void;
  describe(message: object): void;
  parsedStatements: Record<string, string>;
}

/** pg's Query, with the parts of it these subclasses use. */
interface PgQuery {
  name?: string;
  _result: RowShape;
  _accumulateRows: boolean;
  _checkForMultirow(): void;
  prepare(connection: ProtocolConnection): void;
  handleRowDescription(message: unknown): void;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: unknown): void;
}
const Query = (pg as unknown as { Query: new (config: object) => PgQuery }).Query;

export interface PreparedConfig {
  /** None: a statement too long to prepare by name, sent after BEGIN (AfterBegin). */
  name: string | undefined;
  text: string;
  values: unknown[];
  shapes: RowShapes;
  callback(err: Error | null, result: pg.QueryResult | pg.QueryResult[]): void;
}

/**
 * A statement prepared by name whose columns this connection already knows is sent without a Describe, so the
 * server sends no RowDescription and pg builds no parsers for it: on every request pg did both for every statement
 * (issue 21's profile: about 5 % of a look-up's CPU). Its rows are read with the columns kept from its first run.
 * A migration that changes them fails the statement ("cached plan must not change result type"), and the client
 * then forgets its statements and these shapes together.
 */
export class PreparedQuery extends Query {
  private readonly shapes: RowShapes;
  /** The columns to read this statement's rows with, until they are put on its result. */
  private known: RowShape | undefined;
  /** Answers of statements sent before this one in the same write (AfterBegin's BEGIN) that are still to come. */
  protected answersBefore = 0;

  constructor(config: PreparedConfig) {
    super({ ...config, queryMode: 'extended' });
    this.shapes = config.shapes;
  }

  override prepare(connection: ProtocolConnection): void {
    this.known = this.name !== undefined && connection.parsedStatements[this.name] !== undefined ? this.shapes.get(this.name) : undefined;
    super.prepare(this.known ? Object.create(connection, { describe: { value() {} } }) : connection);
  }

  override handleRowDescription(message: unknown): void {
    super.handleRowDescription(message);
    // The columns only: the result itself goes on to hold this run's rows.
    const { fields, _parsers, _prebuiltEmptyResultObject } = this._result;
    if (this.name !== undefined) this.shapes.set(this.name, { fields, _parsers, _prebuiltEmptyResultObject });
  }

  override handleDataRow(message: unknown): void {
    this.useKnownColumns();
    super.handleDataRow(message);
  }

  override handleCommandComplete(message: unknown, connection: unknown): void {
    if (this.answersBefore > 0) this.answersBefore--;
    else this.useKnownColumns();
    super.handleCommandComplete(message, connection);
  }

  // What handleRowDescription does with the columns, from those kept.
  private useKnownColumns(): void {
    if (!this.known) return;
    this._checkForMultirow();
    Object.assign(this._result, this.known);
    this._accumulateRows = true;
    this.known = undefined;
  }
}

/** A prepared statement whose messages, written at once by its submit, follow BEGIN's (unnamed statement and portal). */
export class AfterBegin extends PreparedQuery {
  protected override answersBefore = 1;

  override prepare(connection: ProtocolConnection): void {
    connection.parse({ text: 'begin', name: '', types: [] });
    connection.bind({});
    connection.execute({});
    super.prepare(connection);
  }
}
