import { ErrorEnvelope, type SvcError } from './error-schemas';

/** Codes the client gives to failures that never reached a parsed API answer (never the API's). */
export const CLIENT_ERROR_CODES = {
  /** The connection failed or was dropped before a response arrived. */
  network: 'network_error',
  /** No response within the request timeout. */
  timeout: 'timeout',
  /** The caller aborted through its AbortSignal. */
  aborted: 'aborted',
  /** A 2xx whose body did not match the schema, or an error response without an envelope. */
  badResponse: 'unexpected_response',
  /** A write queue item cancelled before it ran. */
  cancelled: 'cancelled',
  /** A cursor walk that came back to where it had been (a repeated cursor or page of rows). */
  cursorLoop: 'cursor_loop',
  /** A cursor walk that read more pages than its budget allows. */
  pageBudget: 'page_budget_exceeded',
  /** A logical request (its retries and waits included) that outlived its deadline. */
  deadline: 'deadline_exceeded',
} as const;

/** What an ApiError is made of: its fields (status and code required), message and cause. */
export type ApiErrorInit = Pick<ApiError, 'status' | 'code'> &
  Partial<Omit<ApiError, 'status' | 'code' | keyof Error | 'hasFieldErrors'>> & {
    message: string;
    cause?: unknown;
  };

/** The client's one error type: branch on `code`, never `message`; `status` 0 means no answer. */
export class ApiError extends Error {
  readonly status!: number;
  readonly code!: string;
  readonly requestId!: string | undefined;
  /** A 422's field errors: field name to messages. Empty for every other error. */
  readonly fieldErrors!: Record<string, string[]>;
  /** Seconds from the `Retry-After` header, when present. */
  readonly retryAfter!: number | undefined;
  /** `svc_error.changed_params` of `page_info_filter_mismatch`. */
  readonly changedParams!: string[] | undefined;
  /** `svc_error.reason` of `card_not_listable`. */
  readonly reason!: string | undefined;
  /** `svc_error.max_bytes` of `body_too_large`. */
  readonly maxBytes!: number | undefined;
  /** `upstream_paused`: when the pause the API asked for ends (epoch ms). */
  readonly pausedUntil!: number | undefined;
  readonly supportedVersions!: SvcError['supported_versions'];

  constructor({ message, cause, ...fields }: ApiErrorInit) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
    Object.assign(this, fields, { fieldErrors: fields.fieldErrors ?? {} });
  }

  /** True for a 422 that named fields. */
  get hasFieldErrors(): boolean {
    return Object.keys(this.fieldErrors).length > 0;
  }

  /** Builds the error of a non-2xx response from its status, headers and parsed JSON body. */
  static fromResponse(status: number, headers: Headers, body: unknown): ApiError {
    const retryAfter = parseRetryAfter(headers.get('retry-after'));
    const headerRequestId = headers.get('x-request-id') ?? undefined;
    const parsed = ErrorEnvelope.safeParse(body);
    if (!parsed.success) {
      return new ApiError({
        status,
        code: status === 429 ? 'rate_limited' : CLIENT_ERROR_CODES.badResponse,
        message: `HTTP ${status} without an error envelope`,
        requestId: headerRequestId,
        retryAfter,
      });
    }
    const { errors, svc_error: svc } = parsed.data;
    const fieldErrors = typeof errors === 'string' ? {} : errors;
    const until = svc.until === undefined ? NaN : Date.parse(svc.until);
    const pausedUntil = Number.isNaN(until) ? undefined : until;
    const message =
      typeof errors === 'string'
        ? errors
        : Object.entries(errors)
            .map(([field, messages]) => `${field} ${messages.join(', ')}`)
            .join('; ') || svc.code;
    return new ApiError({
      status,
      code: svc.code,
      message,
      requestId: svc.request_id ?? headerRequestId,
      fieldErrors,
      retryAfter,
      changedParams: svc.changed_params,
      reason: svc.reason,
      maxBytes: svc.max_bytes,
      pausedUntil,
      supportedVersions: svc.supported_versions,
    });
  }
}

/** `Retry-After` as seconds: a delay in seconds or an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, (at - Date.now()) / 1000);
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;
