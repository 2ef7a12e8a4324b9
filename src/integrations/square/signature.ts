// Square's webhook signature (docs/integrations/square-reference.md §1): base64 HMAC-SHA256 of the notification URL
// followed by the raw body, keyed with the subscription's signature key as text; compared in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function squareSignatureValid(signatureKey: string, notificationUrl: string, rawBody: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = createHmac('sha256', signatureKey).update(notificationUrl + rawBody, 'utf8').digest();
  const given = Buffer.from(header, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
