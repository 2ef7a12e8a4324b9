// `npm run build`: the server compiled to JavaScript (dist/, what `npm start` runs) and the dashboard (web/dist).
// `--if-stale` (`npm ci`'s prepare, and npm start's prestart) builds each only when it is missing or older than its
// sources: a fresh clone gets both from `npm ci`, so the first `npm start` builds nothing (issue 45).
//
// How the first `npm start` stays fast (docs/architecture.md#the-build): the server is transpiled file by file with
// esbuild (the compiler tsx runs the tests with), in about a second, where `tsc` took 10–15 s. Transpiling does not
// type-check: type errors are caught by `npm run typecheck` and `npm test` (and so .ci/run), which run `tsc --noEmit`
// and `tsc -p web`, and by the full `npm run build` (the Docker image's), which runs `tsc -p tsconfig.build.json`
// before it transpiles. The start (`--if-stale`) only transpiles.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import * as dashboard from '../web/build.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
const SERVER_ENTRY = path.join(DIST, 'main.js');
const SERVER_SOURCES = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json', 'scripts/build.mjs'].map((p) => path.join(ROOT, p));

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(p).map((e) => newestMtime(path.join(p, e))));
}

const serverIsStale = () => !existsSync(SERVER_ENTRY) || Math.max(...SERVER_SOURCES.map(newestMtime)) > statSync(SERVER_ENTRY).mtimeMs;

/** Every .ts module under src/ (no declaration files), as tsconfig.build.json's `include` has them. */
function serverModules(dir = SRC) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return serverModules(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The full build's type-check of what dist/ is made from (src/ only: the Docker build has no test/). */
function typeCheckServer() {
  const started = Date.now();
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json'), '--noEmit'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  process.stdout.write(`Server type-checked in ${((Date.now() - started) / 1000).toFixed(1)} s (tsc).\n`);
}

async function buildServer() {
  const started = Date.now();
  // From scratch: a module deleted from src/ must not linger in dist/.
  rmSync(DIST, { recursive: true, force: true });
  // One output file per module, the layout tsc gave (dist/main.js for src/main.ts): no bundle, so the lazy imports
  // (PGlite, ioredis, argon2 and bwip-js only when used) stay lazy. The options the code depends on
  // (verbatimModuleSyntax, class fields) come from tsconfig.json, which esbuild reads.
  try {
    await esbuild.build({
      entryPoints: serverModules(),
      outbase: SRC,
      outdir: DIST,
      bundle: false,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      sourcesContent: false,
      logLevel: 'warning',
    });
  } catch {
    // esbuild has printed the errors with their places; its stack trace would only bury them.
    rmSync(DIST, { recursive: true, force: true });
    process.stderr.write('The server did not compile (src/): see the errors above.\n');
    process.exit(1);
  }
  process.stdout.write(`Server compiled in ${((Date.now() - started) / 1000).toFixed(1)} s (dist).\n`);
}

const ifStale = process.argv.includes('--if-stale');
if (!ifStale) typeCheckServer();
if (!ifStale || serverIsStale()) {
  if (ifStale) process.stdout.write('Compiling the server (src/) once; later starts reuse it…\n');
  await buildServer();
}
if (!ifStale) {
  dashboard.build();
} else if (dashboard.isStale()) {
  process.stdout.write('Building the dashboard (web/) once; later starts reuse it…\n');
  dashboard.bundle();
}
