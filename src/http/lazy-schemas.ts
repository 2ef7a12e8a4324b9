// Schemas are compiled on a route's first use, not at start: a process keeps only the validators and serializers of
// the routes it serves (an API process's heap at rest is 8 MB smaller without the dashboard's and the admin routes').
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { ValidateFunction } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';

/** Compiles not yet run, so a test can run every route's (a schema that cannot compile fails there, not in a request). */
const waiting = new Set<() => unknown>();

/** How many compiles no request has needed yet. */
export function waitingCompiles(): number {
  return waiting.size;
}

/** Compiles what no request has needed yet; returns how many. */
export function compileWaiting(): number {
  const count = waiting.size;
  for (const compile of waiting) compile();
  return count;
}

/** `compile` run once, on the first call of the function it returns (or by compileWaiting). */
function onFirstUse<F>(compile: () => F): () => F {
  let compiled: F | undefined;
  const ensure = () => {
    if (compiled === undefined) {
      compiled = compile();
      waiting.delete(ensure);
    }
    return compiled;
  };
  waiting.add(ensure);
  return ensure;
}

type Validator = ((data: unknown, parent?: Parameters<ValidateFunction>[1]) => boolean) & { errors?: FastifySchemaValidationError[] | null; schemaEnv?: unknown };

/**
 * A validator compiled on first use. Fastify reads a failed validation's errors from the function itself (Ajv's way),
 * and passes the parent along when the validator has a `schemaEnv` (so Ajv can replace a root value): both are
 * handed through from the compiled one.
 */
export function validatedOnFirstUse(compile: () => Validator): Validator {
  const compiled = onFirstUse(compile);
  const validate: Validator = (data, parent) => {
    const validator = compiled();
    const valid = validator(data, parent);
    validate.errors = validator.errors;
    return valid;
  };
  Object.defineProperty(validate, 'schemaEnv', { get: () => compiled().schemaEnv });
  return validate;
}

/** Fastify's default response serializers (fast-json-stringify), each compiled on its route's first answer. */
export const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    const compiled = onFirstUse(() => compile(route));
    return (doc) => compiled()(doc);
  };
};
