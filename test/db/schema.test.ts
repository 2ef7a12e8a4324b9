// src/db/schema.ts against what the migrations make: every table and column of the freshly migrated test database,
// with its nullability and kind of type, read from TypeScript's own view of the file (its type checker).
import path from 'node:path';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

const SCHEMA = path.resolve(import.meta.dirname, '../../src/db/schema.ts');

/** What a column's values are as the app reads them (src/db/database.ts reads int8 as a number and a date as text). */
type Kind = 'text' | 'number' | 'boolean' | 'Date' | 'json' | 'array' | 'bytes';

interface Column {
  kind: Kind | string;
  nullable: boolean;
}

/** The migrated database's columns, "table.column", with the kind its PostgreSQL type is read as. */
function kindOfPostgresType(dataType: string): Kind | string {
  const kinds: Record<string, Kind> = {
    text: 'text',
    uuid: 'text',
    character: 'text',
    'character varying': 'text',
    date: 'text',
    integer: 'number',
    smallint: 'number',
    bigint: 'number',
    boolean: 'boolean',
    'timestamp with time zone': 'Date',
    jsonb: 'json',
    ARRAY: 'array',
    bytea: 'bytes',
  };
  return kinds[dataType] ?? `unmapped PostgreSQL type ${dataType}`;
}

/**
 * schema.ts's columns, "table.column", from the DB interface: a column's type as Kysely selects it (the first
 * argument of ColumnType, Generated and JSONColumnType, each member of a union on its own), then its kind.
 */
function schemaTsColumns(): Map<string, Column> {
  const program = ts.createProgram([SCHEMA], {
    strict: true,
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(SCHEMA)!;
  const db = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'DB');
  if (!db) throw new Error('src/db/schema.ts has no interface DB');
  const typeOf = (symbol: ts.Symbol) => checker.getTypeOfSymbolAtLocation(symbol, db);
  const selected = (type: ts.Type): ts.Type[] =>
    (type.isUnion() ? type.types : [type]).flatMap((member) => {
      const select = member.getProperty('__select__');
      return select ? selected(typeOf(select)) : [member];
    });
  const kindOf = (type: ts.Type): Kind | string => {
    if (type.flags & ts.TypeFlags.StringLike) return 'text';
    if (type.flags & ts.TypeFlags.NumberLike) return 'number';
    if (type.flags & ts.TypeFlags.BooleanLike) return 'boolean';
    if (checker.isArrayType(type)) return 'array';
    const name = type.getSymbol()?.getName();
    if (name === 'Date') return 'Date';
    if (name === 'Buffer' || name === 'Uint8Array') return 'bytes';
    if (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Unknown)) return 'json';
    return `unmapped TypeScript type ${checker.typeToString(type)}`;
  };
  const columns = new Map<string, Column>();
  for (const table of checker.getTypeAtLocation(db.name).getProperties()) {
    for (const column of typeOf(table).getProperties()) {
      const members = selected(typeOf(column));
      const nullable = members.some((m) => m.flags & ts.TypeFlags.Null);
      const kinds = [...new Set(members.filter((m) => !(m.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined))).map(kindOf))];
      columns.set(`${table.name}.${column.name}`, { kind: kinds.length === 1 ? kinds[0]! : `mixed ${kinds.join(' | ')}`, nullable });
    }
  }
  return columns;
}

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await openTestDatabase();
});
afterAll(async () => {
  await testDb.close();
});

async function migratedColumns(): Promise<Map<string, Column>> {
  const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: 'YES' | 'NO'; data_type: string }>`
    select c.table_name, c.column_name, c.is_nullable, c.data_type
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.table_name not like 'kysely\\_migration%'
  `.execute(testDb.database.db);
  return new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, { kind: kindOfPostgresType(r.data_type), nullable: r.is_nullable === 'YES' }]));
}

describe('src/db/schema.ts', () => {
  it('names every table and column the migrations make, no other, each as nullable and of the kind it is', async () => {
    const [typed, migrated] = [schemaTsColumns(), await migratedColumns()];
    expect(migrated.size).toBeGreaterThan(300);
    const describe = (c: Column) => `${c.kind}${c.nullable ? ' or null' : ''}`;
    // A jsonb column holding a list is typed as an array.
    const agree = (t: Column, m: Column) => t.nullable === m.nullable && (t.kind === m.kind || (m.kind === 'json' && t.kind === 'array'));
    expect({
      missingFromSchemaTs: [...migrated.keys()].filter((k) => !typed.has(k)).sort(),
      notInTheDatabase: [...typed.keys()].filter((k) => !migrated.has(k)).sort(),
      differing: [...typed]
        .filter(([k, t]) => migrated.has(k) && !agree(t, migrated.get(k)!))
        .map(([k, t]) => `${k}: schema.ts says ${describe(t)}, the database ${describe(migrated.get(k)!)}`)
        .sort(),
    }).toEqual({ missingFromSchemaTs: [], notInTheDatabase: [], differing: [] });
  });
});
