import { serverLog } from '../log';

/** What the log keeps of an error: its kind, words and codes, never the rows a walk carried. */
function logged(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const { name, message, stack } = error;
  const fields = error as Error & { code?: unknown; status?: unknown; requestId?: unknown };
  return {
    name,
    message,
    code: fields.code,
    status: fields.status,
    requestId: fields.requestId,
    stack,
  };
}

/** Reports a failure of a step nobody awaits: in the log, never thrown. */
export function reportBackgroundError(where: string, error: unknown): void {
  try {
    serverLog.error({ err: logged(error) }, `Hub: ${where} failed`);
  } catch {
    // A console that cannot write must not stop the server either.
  }
}
