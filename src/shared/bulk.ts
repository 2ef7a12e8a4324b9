// Checking a bulk upload item by item, so one answer lists every bad item by index (menu sync, catalogue), and one
// item put on its own, answered about that item.
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { ApiError } from './errors.js';
import { valueError } from './value-errors.js';

/** One bad item of a refused bulk upload: the `errors` of its parameter_invalid. */
export const BulkItemError = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: 'The position of the item in items.' }),
    param: Type.String({ description: 'The field at fault, in dotted form, for example items[3].price.' }),
    message: Type.String(),
  },
  { title: 'BulkItemError', additionalProperties: false },
);
export type ItemError = Static<typeof BulkItemError>;

/** Every item's first problem against the schema, and any key (SKU) that appears twice. */
export function bulkItemErrors(schema: TSchema, items: unknown[], keyField: string): ItemError[] {
  const errors: ItemError[] = [];
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const first = Value.Errors(schema, item)[0];
    if (first) {
      errors.push({ index, ...valueError(first, `items[${index}]`) });
      return;
    }
    const key = (item as Record<string, string>)[keyField]!;
    const earlier = seen.get(key);
    if (earlier !== undefined) errors.push({ index, param: `items[${index}].${keyField}`, message: `${keyField} ${key} is also item ${earlier}` });
    seen.set(key, index);
  });
  return errors;
}

/** Refuses the whole upload when any item is bad: nothing is applied. */
export function assertBulkValid(schema: TSchema, items: unknown[], keyField: string, noun: string): void {
  const errors = bulkItemErrors(schema, items, keyField);
  if (errors.length) {
    throw new ApiError('parameter_invalid', {
      param: 'items',
      message: `${errors.length} of ${items.length} ${noun} are invalid; nothing was applied. See errors.`,
      details: { errors },
    });
  }
}

/** Refuses one item put on its own (a product by its SKU) with its first problem, named as its request names it: `sku`. */
export function assertItemValid(schema: TSchema, item: unknown): void {
  const first = Value.Errors(schema, item)[0];
  if (first) throw new ApiError('parameter_invalid', valueError(first, ''));
}
