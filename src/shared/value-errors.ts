// A schema error of a value checked in a service (settings, bulk items) as the API names fields: `items[3].price`.
import type { TLocalizedValidationError } from 'typebox/error';

/** The field `error` concerns, below `prefix`, and a sentence naming it relative to the value checked. */
export function valueError(error: TLocalizedValidationError, prefix: string): { param: string; message: string } {
  const missing = error.keyword === 'required' ? (error.params as { requiredProperties?: string[] }).requiredProperties?.[0] : undefined;
  const segments = [...error.instancePath.split('/').slice(1), ...(missing ? [missing] : [])];
  let field = '';
  for (const s of segments) field += /^\d+$/.test(s) ? `[${s}]` : field ? `.${s}` : s;
  const param = !field ? prefix : field.startsWith('[') || !prefix ? `${prefix}${field}` : `${prefix}.${field}`;
  const message =
    error.keyword === 'required' ? `${field} is required.`
    : error.schemaPath.endsWith('additionalProperties') ? `${field} is not a known field.`
    : `${field || 'The value'} ${error.message}.`;
  return { param, message };
}
