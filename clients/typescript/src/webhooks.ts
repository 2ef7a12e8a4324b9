// Verifying a webhook delivery as the server signs it (src/modules/webhooks/sender.ts): Standard Webhooks.
import { Webhook, WebhookVerificationError as StandardWebhookError } from 'standardwebhooks';
import type { WebhookEvent } from './types.js';

/**
 * What `webhooks.verify` throws for a delivery that is not genuine or is too old. The package's own class, not
 * standardwebhooks' one: that library's types need Node's (`Buffer`), and ours stand alone.
 */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** A fetch `Headers`, or a plain object such as Node's `req.headers` (names in any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const SIGNED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

export function verifyWebhook(payload: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  try {
    return new Webhook(secret).verify(body, signedHeaders(headers)) as WebhookEvent;
  } catch (err) {
    if (err instanceof StandardWebhookError) throw new WebhookVerificationError(err.message, { cause: err });
    throw err;
  }
}

function signedHeaders(headers: WebhookHeaders): Record<string, string> {
  const read =
    headers instanceof Headers
      ? (name: string) => headers.get(name) ?? undefined
      : (name: string) => {
          const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
          return Array.isArray(entry) ? entry[0] : entry;
        };
  return Object.fromEntries(SIGNED_HEADERS.flatMap((name) => {
    const value = read(name);
    return value === undefined ? [] : [[name, value]];
  }));
}
