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
    // A served (https) server without e-mail shows each link to whoever asked for it, and a link says whether its address has an account.
    ...(!config.smtpUrl && config.publicBaseUrl.startsWith('https:')
      ? [
          `SMTP_URL is unset: dashboard links are shown, not e-mailed, so whoever is shown one (an owner inviting${config.dashboardSignup ? ', anyone signing up' : ''}) learns from it whether its address already has an account. Set SMTP_URL.`,
        ]
      : []),
  ];
}
