// `npm run bench:connectors`: the point-of-sale connectors against the service as its own process (`npm start`, one
// process running the API and the worker, on a fresh embedded database or DATABASE_URL's server): Toast INQUIRE and
// ACCRUE answered one after another (median and p99, against Toast's 500 ms average), and a Square webhook's time to
// an applied check, the service fetching from a local stand-in of Square's API. Writes bench/results/connectors-<database>.json (BENCH_OUT: elsewhere).
// BENCH_SMOKE=1: a few of each (a run that the script works, not figures). With DATABASE_URL, set API_KEY_PEPPER too.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { endpointUrlOf } from '../../src/integrations/core/service.js';
import { SquareStandIn, signedSquareDelivery, squareCustomer, squareEvent, squareOrder, squarePayment } from '../../test/support/square-stand-in.js';
import { accrueBody, inquireBody, toastCheck, toastHeaders } from '../../test/support/toast-pos.js';
import { freePort, scriptCommand, startProcess, waitForLine, waitReady } from './processes.js';
import { round } from './stats.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SMOKE = process.env.BENCH_SMOKE === '1';
const COUNTS = SMOKE ? { inquire: 10, accrue: 10, square: 5 } : { inquire: 400, accrue: 300, square: 150 };
const TOAST_KEY = `bench-toast-key-${randomUUID()}`;
const SQUARE_TOKEN = 'EAAA-bench-access-token';
const SIGNATURE_KEY = 'bench-signature-key';

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
};
const summary = (ms: number[]) => ({ n: ms.length, median_ms: round(quantile(ms, 0.5), 2), p99_ms: round(quantile(ms, 0.99), 2), max_ms: round(Math.max(...ms), 2) });

async function timed(run: () => Promise<Response>): Promise<number> {
  const t0 = performance.now();
  const res = await run();
  const body = await res.text();
  if (!res.ok) throw new Error(`answered ${res.status}: ${body}`);
  return performance.now() - t0;
}

async function main(): Promise<void> {
  // `npm start` runs the compiled server: built first when its sources are newer, as its prestart does.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--if-stale'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const square = await SquareStandIn.start({ accessToken: SQUARE_TOKEN });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vl-bench-connectors-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { file, args } = scriptCommand(ROOT, 'start');
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SQUARE_API_URL: square.url, PUBLIC_BASE_URL: base };
  // The polls for Square's check are keyed requests: the per-key limit would pace them, not the service.
  env.RATE_LIMIT_PER_MINUTE = '1000000';
  if (!process.env.DATABASE_URL) env.DATA_DIR = dataDir;
  const service = startProcess(file, args, { cwd: ROOT, env });
  try {
    const key = (await waitForLine(service, '  Test API key:', 240_000)).split(/\s+/)[0]!;
    await waitReady(service, `${base}/readyz`, 60_000);
    const api = (method: string, url: string, body?: unknown) =>
      fetch(`${base}${url}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const venueId = ((await (await api('GET', '/api/v1/account')).json()) as { venue: { id: string } }).venue.id;
    const phone = '+353 87 000 1234';
    const enrolled = await api('POST', '/api/v1/members', { card_number: `BENCH-${Date.now()}`, phone, consent: true });
    const member = (await enrolled.json()) as { id: string };
    if (enrolled.status !== 201) throw new Error(`enrolment answered ${enrolled.status}: ${JSON.stringify(member)}`);
    const restaurant = randomUUID();
    const connect = async (body: unknown) => ((await (await api('POST', '/api/v1/integrations', body)).json()) as { id: string }).id;
    const toastId = await connect({ provider: 'toast', name: 'Bench Toast', locations: { [restaurant]: venueId }, settings: { api_key: TOAST_KEY } });
    const squareId = await connect({ provider: 'square', name: 'Bench Square', locations: { 'LOC-BENCH': venueId }, settings: { access_token: SQUARE_TOKEN, webhook_signature_key: SIGNATURE_KEY } });

    const toast = (type: 'LOYALTY_INQUIRE' | 'LOYALTY_ACCRUE', body: unknown) =>
      fetch(`${base}/integrations/toast/${toastId}`, { method: 'POST', headers: toastHeaders({ type, restaurant, authorization: TOAST_KEY }), body: JSON.stringify(body) });
    const dinner = () => toastCheck({ selections: [{ name: 'Flat white', price: 3.5, quantity: 2 }, { name: 'Scone', price: 2.75, quantity: 1 }] });
    const inquire: number[] = [];
    for (let i = 0; i < COUNTS.inquire; i++) inquire.push(await timed(() => toast('LOYALTY_INQUIRE', inquireBody(member.id, dinner()))));
    const accrue: number[] = [];
    for (let i = 0; i < COUNTS.accrue; i++) accrue.push(await timed(() => toast('LOYALTY_ACCRUE', accrueBody(member.id, { ...dinner(), paymentStatus: 'CLOSED' }))));

    // Square: a completed payment's webhook, then the check looked for every 2 ms until it is there.
    const customer = square.addCustomer(squareCustomer({ phone_number: phone }));
    const url = endpointUrlOf(base, 'square', squareId);
    const applied: number[] = [];
    for (let i = 0; i < COUNTS.square; i++) {
      const payment = squarePayment({ location_id: 'LOC-BENCH', amount_money: { amount: 950, currency: 'EUR' }, customer_id: customer.id });
      const order = squareOrder({ location_id: 'LOC-BENCH', customer_id: customer.id, line_items: [{ name: 'Lunch', quantity: '1', base_price_money: { amount: 950, currency: 'EUR' } }], tenders: [{ payment_id: payment.id, amount_money: { amount: 950, currency: 'EUR' } }], state: 'COMPLETED' });
      payment.order_id = order.id;
      square.addOrder(order);
      square.addPayment(payment);
      const { body, headers } = signedSquareDelivery(SIGNATURE_KEY, url, squareEvent('payment.updated', payment));
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers, body });
      if (res.status !== 200) throw new Error(`the webhook was answered ${res.status}`);
      for (;;) {
        if ((await api('GET', `/api/v1/transactions/square:${payment.id}`)).status === 200) break;
        if (performance.now() - t0 > 30_000) throw new Error('no check within 30 s');
        await new Promise((r) => setTimeout(r, 2));
      }
      applied.push(performance.now() - t0);
    }

    const result = {
      at: new Date().toISOString(),
      smoke: SMOKE,
      database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
      service: 'npm start, ROLE=all (the API and the worker in one process), LOG_LEVEL=warn, RATE_LIMIT_PER_MINUTE=1000000',
      toast_inquire: summary(inquire),
      toast_accrue: summary(accrue),
      square_webhook_to_applied_check: summary(applied),
    };
    writeFileSync(process.env.BENCH_OUT ?? path.join(ROOT, `bench/results/connectors-${result.database}.json`), `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await service.stop();
    await square.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
