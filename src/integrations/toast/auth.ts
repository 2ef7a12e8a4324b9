// Toast's credential on each call (docs/integrations/toast-reference.md §1): the static API key Toast prefers, sent as
// the raw Authorization value, or where only Toast's public key is set, its deprecated RS256 JWT (one that never
// expires is refused: a token copied once would work for ever).
import { createHash, timingSafeEqual } from 'node:crypto';
import { importSPKI, jwtVerify, type CryptoKey } from 'jose';

const digest = (text: string) => createHash('sha256').update(text).digest();
const keys = new Map<string, Promise<CryptoKey>>();

/** Whether `header` is the connection's credential; a key is compared by its digest, so its length says nothing. */
export async function toastAuthorised(settings: Record<string, string>, header: string | undefined): Promise<boolean> {
  if (!header) return false;
  const given = header.replace(/^Bearer\s+/i, '').trim();
  if (settings.api_key) return timingSafeEqual(digest(given), digest(settings.api_key));
  if (!settings.public_key) return false;
  try {
    const pem = settings.public_key;
    if (!keys.has(pem)) keys.set(pem, importSPKI(pem, 'RS256'));
    await jwtVerify(given, await keys.get(pem)!, { algorithms: ['RS256'], requiredClaims: ['exp'] });
    return true;
  } catch {
    return false;
  }
}
