import { ApiError, CLIENT_ERROR_CODES } from './api-error';

/** The ApiError of an aborted signal: `timeout` when it timed out, else `aborted`. */
export function abortError(signal: AbortSignal): ApiError {
  const reason: unknown = signal.reason;
  const timedOut = reason instanceof DOMException && reason.name === 'TimeoutError';
  return new ApiError({
    status: 0,
    code: timedOut ? CLIENT_ERROR_CODES.timeout : CLIENT_ERROR_CODES.aborted,
    message: timedOut ? 'The request timed out' : 'The request was aborted',
    cause: reason,
  });
}

/** Resolves after `ms`, or rejects with an `aborted` ApiError when the signal fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Combines the signals given. */
export function anySignal(signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length <= 1 ? present[0] : AbortSignal.any(present);
}
