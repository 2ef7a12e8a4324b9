// What the operator is told at start-up about a configuration that runs but is not what production wants.
import type { Config } from './config.js';
import { missingAppleSettings } from './modules/wallet/apple-pass.js';
import { appleWarnings } from './modules/wallet/service.js';

export function startupWarnings(config: Pick<Config, 'publicBaseUrl' | 'appleWallet' | 'webhookAllowPrivateUrls' | 'dashboardSignup' | 'smtpUrl'>): string[] {
  return [
    ...(missingAppleSettings(config.appleWallet).length === 0 ? appleWarnings(config.publicBaseUrl) : []),
    ...(config.webhookAllowPrivateUrls
      ? ['WEBHOOK_ALLOW_PRIVATE_URLS=true: webhooks may be sent over http and to this machine or its network (loopback, private and link-local addresses, the cloud metadata address). For development only.']
      : []),
    // A served (https) server with open sign-up and no e-mail shows each sign-up its link, and so whether the address has an account.
    ...(config.dashboardSignup && !config.smtpUrl && config.publicBaseUrl.startsWith('https:')
      ? ['DASHBOARD_SIGNUP is open without SMTP_URL: a sign-up cannot be confirmed by e-mail, so whoever signs up learns from its link whether the address already has an account. Set SMTP_URL, or close sign-up.']
      : []),
  ];
}
