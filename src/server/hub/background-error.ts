/** Reports a failure of a step nobody awaits: on the console, never thrown. */
export function reportBackgroundError(where: string, error: unknown): void {
  try {
    console.error(`Slabdesk hub: ${where} failed:`, error);
  } catch {
    // A console that cannot write must not stop the server either.
  }
}
