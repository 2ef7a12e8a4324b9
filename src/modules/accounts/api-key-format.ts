// API key secrets (D4): sk_test_/sk_live_ + 32 base62 + 6-char base62 CRC32 checksum; stored only as an HMAC.
import { createHmac, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = /^sk_(test|live)_[0-9A-Za-z]{38}$/;
export const DISPLAY_PREFIX_LENGTH = 12;

function base62(value: number, width: number): string {
  let out = '';
  for (let v = value; v > 0; v = Math.floor(v / 62)) out = BASE62[v % 62] + out;
  return out.padStart(width, '0');
}

const checksum = (body: string): string => base62(crc32(body), 6);

export function generateKeySecret(livemode: boolean): string {
  let body = livemode ? 'sk_live_' : 'sk_test_';
  for (let i = 0; i < 32; i++) body += BASE62[randomInt(62)];
  return body + checksum(body);
}

/** True when the string has a key's shape and its checksum matches: a typo is refused without the database. */
export function isWellFormedKey(secret: string): boolean {
  return KEY_SHAPE.test(secret) && checksum(secret.slice(0, -6)) === secret.slice(-6);
}

export function hashKeySecret(secret: string, pepper: string): string {
  return createHmac('sha256', pepper).update(secret).digest('hex');
}
