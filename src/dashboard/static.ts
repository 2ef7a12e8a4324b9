// Serves the built single-page app (web/dist) at /dashboard, with index.html for every page path (SPA fallback).
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { App } from '../http/context.js';
import { ApiError } from '../shared/errors.js';

export const WEB_DIST = path.resolve(import.meta.dirname, '../../web/dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Dashboard not built</title>
<p>The dashboard has not been built yet. Run <code>npm run build</code> (or <code>npm start</code>, which builds it when needed).</p>`;

async function sendFile(reply: FastifyReply, file: string, immutable: boolean) {
  const body = await readFile(file);
  reply
    .header('content-type', TYPES[path.extname(file)] ?? 'application/octet-stream')
    .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  return reply.send(body);
}

export async function dashboardStaticRoutes(app: App, opts: { root?: string } = {}): Promise<void> {
  const root = opts.root ?? WEB_DIST;
  const index = path.join(root, 'index.html');
  const serve = async (rel: string, reply: FastifyReply) => {
    if (rel.startsWith('api/') || rel === 'api') throw new ApiError('route_not_found', { message: `No route GET /dashboard/${rel}.` });
    const file = path.resolve(root, rel);
    if (rel && file.startsWith(root + path.sep)) {
      const found = await stat(file).catch(() => undefined);
      if (found?.isFile()) return sendFile(reply, file, rel.startsWith('assets/'));
      // A missing asset is a 404, not the page: a stale page asking for an old bundle must not get HTML.
      if (rel.startsWith('assets/')) throw new ApiError('route_not_found', { message: `No file /dashboard/${rel}.` });
    }
    if (!(await stat(index).catch(() => undefined))) return reply.code(503).header('content-type', 'text/html; charset=utf-8').send(NOT_BUILT);
    return sendFile(reply, index, false);
  };
  app.get('/dashboard', { schema: { hide: true } }, (_req, reply) => serve('', reply));
  app.get('/dashboard/*', { schema: { hide: true } }, (req, reply) => serve((req.params as { '*': string })['*'], reply));
}
