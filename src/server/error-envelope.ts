/** The API's error envelope, as every answer of the server's own refusal carries it. */
export function errorEnvelope(
  code: string,
  message: unknown,
  extra: Record<string, unknown> = {},
): { errors: unknown; svc_error: Record<string, unknown> } {
  return { errors: message, svc_error: { code, request_id: null, ...extra } };
}
