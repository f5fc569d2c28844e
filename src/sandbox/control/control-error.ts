/** A control API failure: `{error: message}` with 400, 404 or 409. */
export class ControlError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}
