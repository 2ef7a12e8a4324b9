// Verifying a webhook delivery as the server signs it (src/modules/webhooks/sender.ts): Standard Webhooks.
import { Webhook } from 'standardwebhooks';
import type { WebhookEvent } from './types.js';

/** A fetch `Headers`, or a plain object such as Node's `req.headers` (names in any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const SIGNED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

export function verifyWebhook(payload: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  return new Webhook(secret).verify(body, signedHeaders(headers)) as WebhookEvent;
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
