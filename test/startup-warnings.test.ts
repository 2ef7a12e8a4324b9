// What start-up warns about, and what the Brand page says of Apple passes issued while PUBLIC_BASE_URL is http.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startupWarnings } from '../src/startup-warnings.js';
import { startTestApp } from './support/app.js';
import { signedUpOwner } from './dashboard/support.js';
import { startServerProcess } from './support/processes.js';
import { appleSettings, throwAwayCertificates } from './support/wallet.js';

const certs = throwAwayCertificates();
const apple = appleSettings(certs);

describe('start-up warnings', () => {
  it('warn of http Apple passes (Apple set up) and of private webhook targets; nothing for an https, strict server', () => {
    const quiet = { dashboardSignup: false, smtpUrl: 'smtp://mail.example.com:587' };
    const warnings = startupWarnings({ publicBaseUrl: 'http://loyalty.example.com', appleWallet: apple, webhookAllowPrivateUrls: true, ...quiet });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^PUBLIC_BASE_URL is http:\/\/loyalty\.example\.com, so passes are issued with an http web service, which Apple Wallet refuses/);
    expect(warnings[1]).toMatch(/^WEBHOOK_ALLOW_PRIVATE_URLS=true: /);
    expect(startupWarnings({ publicBaseUrl: 'https://loyalty.example.com', appleWallet: apple, webhookAllowPrivateUrls: false, ...quiet })).toEqual([]);
  });

  it('warn of links shown, not e-mailed, on a served (https) server without SMTP_URL, not on a local one or with it', () => {
    const served = { publicBaseUrl: 'https://loyalty.example.com', appleWallet: apple, webhookAllowPrivateUrls: false };
    expect(startupWarnings({ ...served, dashboardSignup: true, smtpUrl: undefined })).toEqual([
      'SMTP_URL is unset: dashboard links are shown, not e-mailed, so whoever is shown one (an owner inviting, anyone signing up) learns from it whether its address already has an account. Set SMTP_URL.',
    ]);
    expect(startupWarnings({ ...served, dashboardSignup: false, smtpUrl: undefined })).toEqual([expect.stringContaining('(an owner inviting) learns')]);
    expect(startupWarnings({ ...served, dashboardSignup: true, smtpUrl: 'smtp://mail.example.com:587' })).toEqual([]);
    // (http draws the Apple warning only.)
    expect(startupWarnings({ ...served, publicBaseUrl: 'http://localhost:3000', dashboardSignup: true, smtpUrl: undefined })).toEqual([expect.stringMatching(/^PUBLIC_BASE_URL is http:/)]);
  });

  it('the Brand page\'s wallet status carries the http warning for Apple', async () => {
    const app = await startTestApp({ config: { appleWallet: apple, publicBaseUrl: 'http://loyalty.example.com' } });
    try {
      const { c } = await signedUpOwner(app);
      const status = (await c.get('/dashboard/api/wallet')).body;
      expect(status.apple).toMatchObject({ configured: true, warnings: [expect.stringMatching(/Apple Wallet refuses outside developer mode/)] });
      expect(status.google.warnings).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('a server started with WEBHOOK_ALLOW_PRIVATE_URLS=true says so in its log, at warn', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vl-warn-'));
    const server = await startServerProcess({ DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', DATABASE_URL: '' });
    try {
      expect(server.logLines().filter((l) => l.level === 40).map((l) => l.msg)).toContainEqual(expect.stringMatching(/^WEBHOOK_ALLOW_PRIVATE_URLS=true: /));
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
