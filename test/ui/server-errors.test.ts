import { describe, expect, it } from 'vitest';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../src/client';
import { applyServerErrors } from '../../src/lib/server-errors';

interface Form extends FieldValues {
  price: string;
  minimum_offer: string;
  card: { title: string };
}

function recorder() {
  const calls: { field: string; message: string | undefined; focus: boolean | undefined }[] = [];
  const setError: UseFormSetError<Form> = (field, error, options) => {
    calls.push({ field, message: error.message, focus: options?.shouldFocus });
  };
  return { calls, setError };
}

const FIELDS: FieldPath<Form>[] = ['price', 'minimum_offer', 'card.title'];

const validation = (errors: Record<string, string[]>) =>
  ApiError.fromResponse(422, new Headers({ 'x-request-id': 'req_1' }), {
    errors,
    svc_error: { code: 'validation_error', request_id: 'req_1' },
  });

describe('applyServerErrors', () => {
  it('puts each named field’s messages on that field, focusing the first', () => {
    const { calls, setError } = recorder();
    const applied = applyServerErrors(
      validation({
        price: ['must be between 10 and 1000000 dollars'],
        minimum_offer: ['must be at most the price', 'is odd'],
      }),
      setError,
      FIELDS,
    );
    expect(calls).toEqual([
      { field: 'price', message: 'must be between 10 and 1000000 dollars', focus: true },
      { field: 'minimum_offer', message: 'must be at most the price; is odd', focus: false },
    ]);
    expect(applied).toEqual({ fields: ['price', 'minimum_offer'], formMessages: [] });
  });

  it('maps nested API names and sends unknown fields to form-level messages', () => {
    const { calls, setError } = recorder();
    const applied = applyServerErrors(
      validation({ 'card.title': ['is required'], listing: ['is required'] }),
      setError,
      FIELDS,
    );
    expect(calls.map((c) => c.field)).toEqual(['card.title']);
    expect(applied.formMessages).toEqual(['listing is required']);
  });

  it('uses the field map when the form names a field differently', () => {
    const { calls, setError } = recorder();
    applyServerErrors(validation({ svc_minimum_offer: ['bad'] }), setError, FIELDS, {
      svc_minimum_offer: 'minimum_offer',
    });
    expect(calls[0]?.field).toBe('minimum_offer');
  });

  it('reads a field named like an inherited member (constructor) as a field the form lacks', () => {
    const { calls, setError } = recorder();
    const applied = applyServerErrors(validation({ constructor: ['is odd'] }), setError, FIELDS, {
      svc_minimum_offer: 'minimum_offer',
    });
    expect(calls).toEqual([]);
    expect(applied.formMessages).toEqual(['constructor is odd']);
  });

  it('leaves errors without field errors to the banner', () => {
    const { calls, setError } = recorder();
    const conflict = ApiError.fromResponse(409, new Headers(), {
      errors: 'listing is sold',
      svc_error: { code: 'listing_write_conflict', request_id: 'req_2' },
    });
    expect(applyServerErrors(conflict, setError, FIELDS)).toEqual({ fields: [], formMessages: [] });
    expect(applyServerErrors(new Error('boom'), setError, FIELDS).fields).toEqual([]);
    expect(calls).toEqual([]);
  });
});
