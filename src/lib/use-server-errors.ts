import { useMemo } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import type * as z from 'zod/mini';
import { applyServerErrors } from './server-errors';
import { fieldPathsOf } from './schema-fields';

/** The root error that holds a form's form-level messages (one per line). */
const ROOT = 'root.server' as const;

/** Every form's server errors: `apply` a 422 to fields, `say` a message, `messages` banner. */
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
