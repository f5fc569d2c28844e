import { ownEntry } from '../../shared/own-entry';

/** An error of the public API: the status, the stable `svc_error.code`, and what the envelope adds. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly options: {
      /** 422 field errors: the envelope's `errors` becomes this object instead of the message. */
      fields?: Record<string, string[]>;
      /** Extra members of `svc_error` (changed_params, supported_versions, max_bytes, reason). */
      extra?: Record<string, unknown>;
      /** Seconds for the `Retry-After` header. */
      retryAfter?: number;
    } = {},
  ) {
    super(message);
  }
}

export function errorEnvelope(error: ApiError, requestId: string) {
  return {
    errors: error.options.fields ?? error.message,
    svc_error: { code: error.code, request_id: requestId, ...error.options.extra },
  };
}

export const notFound = () => new ApiError(404, 'not_found', 'Not Found');

export const invalidApiKey = () =>
  new ApiError(
    401,
    'invalid_api_key',
    '[API] Invalid API key or access token (unrecognized login or wrong password)',
  );

export function validationError(fields: Record<string, string[]>): ApiError {
  return new ApiError(422, 'validation_error', 'Validation failed', { fields });
}

/** Collects field messages into one 422; no prototype, since field names are request data. */
export class FieldErrors {
  readonly fields: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  /** Returns undefined, so a field reader can `return errors.add(...)`. */
  add(field: string, message: string): undefined {
    const messages = ownEntry(this.fields, field) ?? [];
    if (messages.length === 0) this.fields[field] = messages;
    messages.push(message);
  }
  throwIfAny(): void {
    if (Object.keys(this.fields).length > 0) throw validationError(this.fields);
  }
}
