// Unknown body fields, found before the schema's other rules: a typo (`ammount`) is named as the typo, with the
// field it probably meant, instead of being answered "amount is required" (issue 25).
import { closest, distance } from 'fastest-levenshtein';
import { ApiError } from '../shared/errors.js';

interface ObjectSchema {
  type?: unknown;
  properties?: Record<string, ObjectSchema>;
  additionalProperties?: unknown;
  items?: ObjectSchema;
  anyOf?: ObjectSchema[];
  oneOf?: ObjectSchema[];
  allOf?: ObjectSchema[];
}

const declaredOf = new WeakMap<object, { names: string[]; closed: boolean }>();

/**
 * The fields a schema declares, through every branch of its unions (a field known to any alternative is known), and
 * whether it refuses others; worked out once per schema, as schemas live as long as their routes.
 */
export function declared(schema: ObjectSchema): { names: string[]; closed: boolean } {
  let found = declaredOf.get(schema);
  if (!found) {
    const alternatives: ObjectSchema[] = [];
    for (const stack = [schema]; stack.length; ) {
      const s = stack.pop()!;
      alternatives.push(s);
      stack.push(...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? []));
    }
    // Closed only when every alternative that is an object refuses what it does not declare.
    const objects = alternatives.filter((s) => s.properties !== undefined);
    found = {
      names: [...new Set(alternatives.flatMap((s) => Object.keys(s.properties ?? {})))],
      closed: objects.length > 0 && objects.every((s) => s.additionalProperties === false),
    };
    declaredOf.set(schema, found);
  }
  return found;
}

/** A near name (a typo's distance) among the known ones, if any. */
function suggestion(name: string, known: string[]): string | undefined {
  if (known.length === 0) return undefined;
  const near = closest(name, known);
  return distance(name, near) <= Math.max(1, Math.floor(near.length / 3)) ? near : undefined;
}

/** The first unknown field of `value` under `schema`, as the API's dotted param, with a known one it may have meant. */
function findUnknown(value: unknown, schema: ObjectSchema | undefined, at: string): { param: string; meant?: string } | undefined {
  if (!schema || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    if (!schema.items) return undefined;
    for (const [i, item] of value.entries()) {
      const found = findUnknown(item, schema.items, `${at}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  const { names, closed } = declared(schema);
  const fields = Object.keys(value);
  if (closed) {
    const unknown = fields.find((f) => !names.includes(f));
    if (unknown !== undefined) return { param: at ? `${at}.${unknown}` : unknown, meant: suggestion(unknown, names) };
  }
  // Deeper only where one schema says what a field holds.
  for (const field of fields) {
    const found = schema.properties?.[field] && findUnknown((value as Record<string, unknown>)[field], schema.properties[field], at ? `${at}.${field}` : field);
    if (found) return found;
  }
  return undefined;
}

/** Refuses a body with a field its schema does not know: 400 parameter_invalid naming it, and what it may have meant. */
export function refuseUnknownFields(body: unknown, schema: unknown): void {
  const found = findUnknown(body, schema as ObjectSchema | undefined, '');
  if (!found) return;
  const hint = found.meant ? ` Did you mean ${found.meant}?` : '';
  throw new ApiError('parameter_invalid', { param: found.param, message: `${found.param} is not a known field.${hint}` });
}
