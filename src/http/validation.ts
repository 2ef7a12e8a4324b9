// Request validation: bodies are checked strictly (no coercion, unknown fields refused); query strings are coerced.
import type { FastifySchemaCompiler } from 'fastify';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  return addFormats(new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false }));
}

const bodyAjv = makeAjv(false);
const urlAjv = makeAjv('array');

export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : urlAjv).compile(schema as object);

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
    default:
      return `${where} ${error.message ?? 'is invalid'}.`;
  }
}
