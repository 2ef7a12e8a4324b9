import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

const TEST = path.resolve(import.meta.dirname, 'test');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/**
 * Whether a test file, or a file of test/ it imports (however deep), reads what test/global-setup.ts prepares: the
 * provided database templates and log directory (`inject`) or the log directory spawned processes inherit.
 */
function usesGlobalSetup(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (/import\s*\{[^}]*\binject\b[^}]*\}\s*from\s*'vitest'/.test(text) || text.includes('VL_TEST_LOG_DIR')) return true;
  // Relative imports only (static, re-exports, dynamic), found by pattern: loading TypeScript's parser here would cost
  // every run, a pure file's included, most of a second.
  return [...text.matchAll(/\b(?:from|import)\s*\(?\s*'(\.[^']*)'/g)]
    .map((m) => path.resolve(path.dirname(file), m[1]!).replace(/\.js$/, '.ts'))
    .some((target) => target.startsWith(TEST + path.sep) && usesGlobalSetup(target, seen));
}

// Pure-logic files (no database, no app) run without the global set-up, so one of them alone does not wait for the
// web bundle and the migrated PGlite template. A file is sorted by what it imports; a new one needs no listing.
const pureFiles = filesUnder(TEST)
  .filter((f) => f.endsWith('.test.ts') && !usesGlobalSetup(f))
  .map((f) => path.relative(import.meta.dirname, f));

export default defineConfig({
  test: {
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'pure', include: pureFiles } },
      {
        extends: true,
        test: { name: 'app', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...pureFiles], globalSetup: ['test/global-setup.ts'] },
      },
    ],
  },
});
