import { useMemo } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import type * as z from 'zod/mini';
import { applyServerErrors } from './server-errors';
import { fieldPathsOf } from './schema-fields';

/** The root error that holds a form's form-level messages (one per line). */
const ROOT = 'root.server' as const;

/**
 * One hook for every form's server errors: `apply(error)` puts a 422's field errors on the
 * fields of the form's schema (derived from the schema, never listed by hand) and the rest on
 * react-hook-form's root error; `say(message)` sets a form-level message of the page's own.
 * `messages` are the root error's lines, for the banner above the form (react-hook-form clears
 * them at the next submit).
 */
export function useServerErrors<T extends FieldValues>(
  form: UseFormReturn<T>,
  schema: z.ZodMiniType,
  fieldMap: Partial<Record<string, FieldPath<T>>> = {},
) {
  const fields = useMemo(() => fieldPathsOf(schema) as FieldPath<T>[], [schema]);
  const { setError } = form;
  const say = (messages: string[]) => {
    if (messages.length > 0) setError(ROOT, { type: 'server', message: messages.join('\n') });
  };
  const apply = (error: unknown) =>
    say(applyServerErrors(error, setError, fields, fieldMap).formMessages);
  const message = form.formState.errors.root?.server?.message;
  return { apply, say, messages: message ? message.split('\n') : [] };
}
