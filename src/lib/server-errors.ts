import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../client';
import { ownEntry } from '../shared/own-entry';

export interface AppliedServerErrors {
  /** Fields that received a message. */
  fields: string[];
  /** Messages for fields the form does not have (or for no field): shown above the form. */
  formMessages: string[];
}

/** Puts a 422's field errors onto a form (via `fieldMap`), the rest as form-level messages. */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  formFields: readonly FieldPath<T>[],
  fieldMap: Partial<Record<string, FieldPath<T>>> = {},
): AppliedServerErrors {
  const applied: AppliedServerErrors = { fields: [], formMessages: [] };
  if (!isApiError(error) || !error.hasFieldErrors) return applied;
  let focused = false;
  for (const [apiField, messages] of Object.entries(error.fieldErrors)) {
    const text = messages.join('; ');
    const field = ownEntry(fieldMap, apiField) ?? (apiField as FieldPath<T>);
    if (formFields.includes(field)) {
      setError(field, { type: 'server', message: text }, { shouldFocus: !focused });
      focused = true;
      applied.fields.push(field);
    } else {
      applied.formMessages.push(`${apiField.replace(/_/g, ' ')} ${text}`);
    }
  }
  return applied;
}
