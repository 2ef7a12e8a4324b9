// Bearer tokens the server hands out (a dashboard session's cookie, an invitation or reset link): 256 random bits in
// base64url, of which only the SHA-256 is stored.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const newToken = (): string => randomBytes(32).toString('base64url');

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Whether the text could be such a token at all: anything else is refused before any look-up. */
export const isTokenShaped = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * Whether `given` is one of `expected` (a token under each key a server keeps), in constant time: every one is
 * compared, as bytes, since a header's text may hold characters of more than one byte.
 */
export function isOneOf(given: string, expected: string[]): boolean {
  const g = Buffer.from(given);
  return expected.map((token) => Buffer.from(token)).map((e) => e.length === g.length && timingSafeEqual(e, g)).includes(true);
}
