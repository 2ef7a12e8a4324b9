// Request validation: bodies are checked strictly (no coercion, unknown fields refused); query strings are coerced.
import type { FastifySchemaCompiler } from 'fastify';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { validatedOnFirstUse } from './lazy-schemas.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const rfc3339 = (fullFormats['date-time'] as { validate: (s: string) => boolean }).validate;
const fullDate = fullFormats.date as { validate: (s: string) => boolean };
// Years 0001-9999 in UTC: what RFC 3339 can write, JavaScript's Date and PostgreSQL's timestamptz can all hold.
// RFC 3339 alone allows year 0000 (and an offset can push 0001-01-01 into it), which reached the database as a 500.
const EARLIEST = new Date('0001-01-01T00:00:00Z').getTime();
const LATEST = new Date('9999-12-31T23:59:59.999Z').getTime();

/** An RFC 3339 date-time with an offset that the database can store (see EARLIEST, LATEST). */
export function isStorableDateTime(text: string): boolean {
  if (!rfc3339(text)) return false;
  const at = Date.parse(text);
  // A leap second (23:59:60) passes RFC 3339 but not Date: refused rather than half-understood.
  return Number.isFinite(at) && at >= EARLIEST && at <= LATEST;
}

/** An RFC 3339 full-date (YYYY-MM-DD) PostgreSQL's date can hold: year 0000 does not exist there either. */
export function isStorableDate(text: string): boolean {
  return fullDate.validate(text) && !text.startsWith('0000');
}

export const DATE_TIME_RULE = 'an RFC 3339 date-time with a UTC offset, in years 0001 to 9999 (e.g. 2024-05-01T12:30:00Z)';

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  // multipleOfPrecision: without it 33.33 is not a multiple of 0.01 in binary floating point, and a two-decimal percent
  // was refused; with it the quotient need only be within 1e-9 of a whole number (1.005 still is not).
  const ajv = addFormats(
    new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false, multipleOfPrecision: 9 }),
  );
  return ajv
    .addFormat('date-time', { type: 'string', validate: isStorableDateTime })
    .addFormat('date', { type: 'string', validate: isStorableDate });
}

const bodyAjv = makeAjv(false);
const urlAjv = makeAjv('array');

export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) =>
  validatedOnFirstUse(() => (httpPart === 'body' ? bodyAjv : urlAjv).compile(schema as object));

/** The request field an Ajv error concerns, in the API's dotted form (`events[0]`, `settings.hold_ttl_seconds`). */
export function paramOf(error: ErrorObject): string | undefined {
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  let param = '';
  for (const s of segments) param += /^\d+$/.test(s) ? `[${s}]` : param ? `.${s}` : s;
  return param || undefined;
}

export function messageOf(error: ErrorObject, part: string): string {
  const param = paramOf(error);
  const where = param ? `${param}` : part === 'body' ? 'The request body' : `The ${part}`;
  switch (error.keyword) {
    case 'required':
      return `${where} is required.`;
    case 'additionalProperties':
      return `${where} is not a known field.`;
    case 'type':
      return `${where} must be of type ${error.params.type}.`;
    case 'format':
      if (error.params.format === 'date-time') return `${where} must be ${DATE_TIME_RULE}.`;
      if (error.params.format === 'date') return `${where} must be a date (YYYY-MM-DD) in years 0001 to 9999.`;
      return `${where} ${error.message ?? 'is invalid'}.`;
    default:
      return `${where} ${error.message ?? 'is invalid'}.`;
  }
}
