// Text from a provider as we keep it: cut to a length without splitting a character, and without what PostgreSQL
// cannot store (NUL, a lone surrogate), which providers' free text may hold.

const MAX_NAME = 200;

/** At most `max` UTF-16 units, never cutting a character in two (a lone half is text PostgreSQL refuses). */
export function cut(text: string, max = MAX_NAME): string {
  let out = '';
  for (const ch of text) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A parsed JSON value with every string made storable. */
export function storable(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(UNSTORABLE, '');
  if (Array.isArray(value)) return value.map(storable);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k) as string, storable(v)]));
  return value;
}
