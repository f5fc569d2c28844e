import { serverLog } from '../log';

/** Reports a failure of a step nobody awaits: in the log, never thrown. */
export function reportBackgroundError(where: string, error: unknown): void {
  try {
    // Its kind, words and codes, never the rows a walk carried (as all its own fields might).
    const fields = error as Error & { code?: unknown; status?: unknown; requestId?: unknown };
    const { name, message, code, status, requestId, stack } = fields;
    const err = error instanceof Error ? { name, message, code, status, requestId, stack } : error;
    serverLog.error({ err }, `Hub: ${where} failed`);
  } catch {
    // A console that cannot write must not stop the server either.
  }
}

/** Runs a step nobody awaits: a failure is logged, never thrown. */
export function guarded(where: string, step: () => void): void {
  try {
    step();
  } catch (error) {
    reportBackgroundError(where, error);
  }
}
