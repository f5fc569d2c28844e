import { serverLog } from '../log';

/** Reports a failure of a step nobody awaits: in the log, never thrown. */
export function reportBackgroundError(where: string, error: unknown): void {
  try {
    serverLog.error({ err: error }, `Hub: ${where} failed`);
  } catch {
    // A console that cannot write must not stop the server either.
  }
}
