// The deployment files held to the code they describe: Dockerfile, compose.yaml and docs/deploy.md (Docker itself
// need not be installed to run this).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openTestDatabase, type TestDatabase } from './support/database.js';
import { runCli } from './support/processes.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

const dockerfile = read('Dockerfile');
const deployDoc = read('docs/deploy.md');
const scaleOutDoc = read('docs/scale-out.md');
const configSource = read('src/config.ts');
const packageJson = JSON.parse(read('package.json')) as { scripts: Record<string, string> };

/** The variables src/config.ts reads: its schema's keys, and any it reads from the environment directly. */
function configVariables(): Set<string> {
  const schema = /const EnvSchema = Type\.Object\(\{([\s\S]*?)\n\}\);/.exec(configSource)?.[1];
  expect(schema, 'the EnvSchema object in src/config.ts').toBeDefined();
  const keys = [...schema!.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
  const direct = [...configSource.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!);
  return new Set([...keys, ...direct]);
}

/** A Dockerfile instruction's exec-form argument list, e.g. CMD ["node", "dist/main.js"]. */
function execForm(instruction: string): string[] {
  const line = dockerfile.split('\n').find((l) => l.startsWith(`${instruction} [`));
  expect(line, `${instruction} in exec form`).toBeDefined();
  return JSON.parse(line!.slice(instruction.length + 1)) as string[];
}

interface ComposeService {
  build?: unknown;
  image?: string;
  environment?: Record<string, string>;
  healthcheck?: { disable?: boolean };
}

const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };
/** Services running this project's image (the others are PostgreSQL, Redis and nginx). */
const appServices = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);

describe('Dockerfile', () => {
  it("runs exactly what package.json's start script runs", () => {
    expect(execForm('CMD').join(' ')).toBe(packageJson.scripts.start);
  });

  it('builds in one stage with npm ci and npm run build, and runs production dependencies as a non-root user', () => {
    const stages = dockerfile.split(/^FROM /m).slice(1);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const [build, runtime] = [stages[0]!, stages.at(-1)!];
    expect(build).toMatch(/^RUN npm ci --ignore-scripts$/m);
    expect(build).toMatch(/^RUN npm run build$/m);
    expect(runtime).toMatch(/^RUN npm ci --omit=dev/m);
    expect(runtime).toMatch(/^COPY --from=\S+ \/app\/dist /m);
    expect(runtime).toMatch(/^USER (?!root\b|0\b)\S+$/m);
    expect(runtime).toMatch(/^EXPOSE \d+$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\\\n\s+CMD .*\/readyz/m);
    // DATA_DIR inside the volume, not the mount point itself: restore renames DATA_DIR.
    const dataDir = /DATA_DIR=(\S+)/.exec(runtime)?.[1];
    const volume = /^VOLUME (\S+)$/m.exec(runtime)?.[1];
    expect(dataDir && volume && dataDir.startsWith(`${volume}/`), `DATA_DIR ${dataDir} inside VOLUME ${volume}`).toBe(true);
  });

  it("never runs package.json's prepare (the build) in an npm ci before the sources it builds are copied", () => {
    expect(packageJson.scripts.prepare).toBe('node scripts/build.mjs --if-stale');
    for (const stage of dockerfile.split(/^FROM /m).slice(1)) {
      const lines = stage.split('\n');
      lines.forEach((line, i) => {
        const sourcesCopied = ['scripts', 'src', 'web'].every((dir) => lines.slice(0, i).some((l) => new RegExp(`^COPY ${dir} `).test(l)));
        if (/^RUN npm ci\b/.test(line) && !sourcesCopied) expect(line).toContain('--ignore-scripts');
      });
    }
  });

  it('sets only variables src/config.ts reads (NODE_ENV included)', () => {
    const known = configVariables();
    const set = [...dockerfile.matchAll(/^\s*(?:ENV\s+)?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    expect(set.length).toBeGreaterThan(0);
    expect(set.filter((name) => !known.has(name))).toEqual([]);
  });
});

describe('compose.yaml', () => {
  it('runs two API processes and a worker on PostgreSQL and Redis, and sets only variables src/config.ts reads', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'redis']));
    const roles = appServices.map(([, s]) => s.environment?.ROLE).sort();
    expect(roles).toEqual(['api', 'api', 'worker']);
    const known = configVariables();
    for (const [name, service] of appServices) {
      const env = service.environment ?? {};
      expect(Object.keys(env).filter((v) => !known.has(v)), name).toEqual([]);
      expect(env.DATABASE_URL, name).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(env.REDIS_URL, name).toBe('redis://redis:6379');
      // The same secrets in every process (src/config.ts insists on the pepper with DATABASE_URL).
      expect(env.API_KEY_PEPPER, name).toBe(appServices[0]![1].environment!.API_KEY_PEPPER);
      expect(env.SECRET_ENCRYPTION_KEY, name).toBe(appServices[0]![1].environment!.SECRET_ENCRYPTION_KEY);
    }
    // The image's health check asks /readyz, which a worker does not serve.
    expect(appServices.filter(([, s]) => s.environment?.ROLE === 'worker').every(([, s]) => s.healthcheck?.disable === true)).toBe(true);
  });
});

describe('docs/deploy.md', () => {
  it('documents every variable src/config.ts reads', () => {
    const documented = new Set([...deployDoc.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]!));
    expect([...configVariables()].filter((v) => !documented.has(v))).toEqual([]);
    expect([...documented].filter((v) => !configVariables().has(v))).toEqual([]);
  });

  it('shows only CLI commands that exist', async () => {
    const help = await runCli(['--help'], {});
    expect(help.code).toBe(0);
    const commands = new Set(
      help.stdout
        .split('\n')
        .filter((l) => l.startsWith('  '))
        // "venue create --name N …   Description": the leading lower-case words are the command's name.
        .map((l) => /^(?:[a-z]+)(?: [a-z]+)?/.exec(l.trim())![0]),
    );
    const blocks = [...deployDoc.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n');
    const shown = [...blocks.matchAll(/npm run cli -- ([^\n#]*)/g)].map((m) => m[1]!.trim());
    expect(shown.length).toBeGreaterThan(5);
    for (const args of shown) {
      const words = args.split(/\s+/);
      const found = [words.slice(0, 2).join(' '), words[0]!].find((n) => commands.has(n)) ?? (args === '--help' ? '--help' : undefined);
      expect(found, `npm run cli -- ${args}`).toBeDefined();
    }
  }, 60_000);

  describe('the Citus statements', () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await openTestDatabase();
    });
    afterAll(() => t.close());

    it('name every table of the migrated schema once, distributing by chain_id only tables that have it', async () => {
      const { rows } = await sql<{ table_name: string; has_chain: boolean }>`
        select t.table_name, exists (select 1 from information_schema.columns c
          where c.table_schema = t.table_schema and c.table_name = t.table_name and c.column_name = 'chain_id') as has_chain
        from information_schema.tables t
        where t.table_schema = current_schema() and t.table_type = 'BASE TABLE' and t.table_name not like 'kysely\\_%'`.execute(t.database.db);
      const named = [...scaleOutDoc.matchAll(/select create_(distributed|reference)_table\('([a-z_]+)'(?:, '([a-z_]+)')?\)/g)].map((m) => ({
        kind: m[1]!,
        table: m[2]!,
        column: m[3],
      }));
      const tables = rows.map((r) => r.table_name);
      expect(tables.filter((name) => named.filter((n) => n.table === name).length !== 1), 'tables not named exactly once').toEqual([]);
      for (const n of named.filter((x) => x.kind === 'distributed')) {
        expect(n.column, n.table).toBe('chain_id');
        const row = rows.find((r) => r.table_name === n.table);
        if (row) expect(row.has_chain, n.table).toBe(true);
      }
    });
  });
});
