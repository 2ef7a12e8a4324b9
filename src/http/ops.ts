// Operations endpoints: liveness, readiness, Prometheus metrics, and the error reference page.
import { sql } from 'kysely';
import { Registry, collectDefaultMetrics, Counter, Histogram } from 'prom-client';
import { ERROR_CODES } from '../shared/errors.js';
import { escapeHtml } from '../shared/html.js';
import type { App } from './context.js';


function errorReferenceHtml(): string {
  const rows = Object.entries(ERROR_CODES)
    .map(([code, s]) => `<tr id="${code}"><td><code>${code}</code></td><td>${s.status}</td><td>${s.type}</td><td>${escapeHtml(s.message)}</td></tr>`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Venue Loyalty API errors</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem;max-width:70rem}td,th{padding:.3rem .6rem;text-align:left;border-bottom:1px solid #ddd}:target{background:#fff3b0}</style>
</head><body><h1>Error codes</h1><p>Every error answers <code>{"error": {type, code, message, param?, doc_url}, "request_id"}</code>. Branch on <code>code</code>.</p>
<table><thead><tr><th>code</th><th>status</th><th>type</th><th>meaning</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
}

/** Installed on the root instance so the metrics hook sees every route. */
export function installOps(app: App): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route',
    labelNames: ['method', 'route'],
    registers: [registry],
  });
  // One log line per request (D1); never headers or bodies, so no secret can reach the log.
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    req.log.info(
      {
        method: req.method,
        url: req.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        key_id: req.caller?.keyId,
        venue_id: req.caller?.venueId,
      },
      'request',
    );
    requests.inc({ method: req.method, route, status: reply.statusCode });
    duration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    done();
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await sql`select 1`.execute(app.deps.db);
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable', reason: 'database unreachable' });
    }
  });
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
  app.get('/api/errors', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(errorReferenceHtml()),
  );
}
