// `npm run build`: the server compiled to JavaScript (dist/, what `npm start` runs) and the dashboard (web/dist).
// `--if-stale` (npm start's prestart) builds each only when it is missing or older than its sources.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import * as dashboard from '../web/build.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER_ENTRY = path.join(ROOT, 'dist/main.js');
const SERVER_SOURCES = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((p) => path.join(ROOT, p));

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(p).map((e) => newestMtime(path.join(p, e))));
}

const serverIsStale = () => !existsSync(SERVER_ENTRY) || Math.max(...SERVER_SOURCES.map(newestMtime)) > statSync(SERVER_ENTRY).mtimeMs;

function buildServer() {
  const started = Date.now();
  // From scratch: a module deleted from src/ must not linger in dist/.
  rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  process.stdout.write(`Server compiled in ${((Date.now() - started) / 1000).toFixed(1)} s (dist).\n`);
}

const ifStale = process.argv.includes('--if-stale');
if (!ifStale || serverIsStale()) {
  if (ifStale) process.stdout.write('Compiling the server (src/) once; later starts reuse it…\n');
  buildServer();
}
if (!ifStale || dashboard.isStale()) {
  if (ifStale) process.stdout.write('Building the dashboard (web/) once; later starts reuse it…\n');
  dashboard.build();
}
