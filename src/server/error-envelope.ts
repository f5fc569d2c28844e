import type { ServerResponse } from 'node:http';

/** The API's error envelope, as every answer of the server's own refusal carries it. */
export function errorEnvelope(
  code: string,
  message: unknown,
  extra: Record<string, unknown> = {},
): { errors: unknown; svc_error: Record<string, unknown> } {
  return { errors: message, svc_error: { code, request_id: null, ...extra } };
}

/** A zod failure's issues as the 422's fields (`{ "keys.auth": ["…"] }`), the whole body as `body`. */
export function fieldsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.') || 'body';
    (fields[field] ??= []).push(issue.message);
  }
  return fields;
}

/** A refusal on the raw response (a route that answers there: the proxy, sign-in, the gate). */
export function sendEnvelope(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): void {
  const body = JSON.stringify(errorEnvelope(code, message, extra));
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(body);
}
