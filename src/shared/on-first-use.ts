// Libraries an API process seldom needs (webhook sending, phones, QR codes, CSV, images, Google's JWTs), loaded on
// first use: an idle process does not carry their code (issue 21's memory figure). Import them from here only.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A CommonJS library, loaded by the first call (synchronously, so sync code may use it) and returned by every call. */
function onFirstUse<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}

export const undici = onFirstUse<typeof import('undici')>('undici');
export const phoneNumbers = onFirstUse<typeof import('libphonenumber-js')>('libphonenumber-js');
export const qrCodes = onFirstUse<typeof import('qrcode')>('qrcode');
export const csvParse = onFirstUse<typeof import('csv-parse')>('csv-parse');
export const imageSizes = onFirstUse<typeof import('image-size')>('image-size');

// jose is an ES module only: its first use awaits it.
let jwt: Promise<typeof import('jose')> | undefined;
export const jose = () => (jwt ??= import('jose'));
