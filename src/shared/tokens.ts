// Bearer tokens the server hands out (a dashboard session's cookie, an invitation or reset link): 256 random bits in
// base64url, of which only the SHA-256 is stored.
import { createHash, randomBytes } from 'node:crypto';

export const newToken = (): string => randomBytes(32).toString('base64url');

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Whether the text could be such a token at all: anything else is refused before any look-up. */
export const isTokenShaped = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);
