// Shows an API error next to the field its `param` names, or returns it for a general alert.
import type { UseFormReturnType } from '@mantine/form';
import { ApiError } from './api';

export function applyApiError<T>(form: UseFormReturnType<T>, err: unknown, fieldOf: (param: string) => string | undefined = (p) => p): string | undefined {
  if (err instanceof ApiError && err.param) {
    const field = fieldOf(err.param);
    if (field) {
      form.setFieldError(field, err.message);
      return undefined;
    }
  }
  return err instanceof Error ? err.message : String(err);
}
