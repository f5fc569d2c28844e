import type * as z from 'zod/mini';
import { ApiError, type SlabdeskClient } from '../client';

export interface ServerCallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON; a Blob (a photo) is sent as its own bytes, with its own type. */
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** The query (in place of any the path holds). */
  search?: URLSearchParams;
  /** The error for a refusal that means "this server has no such part" (rules, shows), if it is one. */
  unavailable?: (status: number, code: string | undefined, body: unknown) => Error | undefined;
}

/** A path of our own server, on the origin the API client talks to. */
export function serverUrl(client: SlabdeskClient, path: string, search?: URLSearchParams): string {
  const here = typeof location === 'undefined' ? 'http://localhost/' : location.href;
  const url = new URL(path, new URL(`${client.transport.baseUrl}/`, here));
  if (search) url.search = search.toString();
  return url.href;
}

/** A JSON call to our own server (rules, show ledger) with the CSRF token; refusals as ApiError. */
export async function callServer<T>(
  client: SlabdeskClient,
  schema: z.ZodMiniType<T>,
  path: string,
  options: ServerCallOptions = {},
): Promise<T> {
  const method = options.method ?? 'GET';
  const url = serverUrl(client, path, options.search);
  const bytes = options.body instanceof Blob ? options.body : undefined;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(options.body === undefined
          ? {}
          : {
              'content-type': bytes ? bytes.type || 'application/octet-stream' : 'application/json',
            }),
        ...client.transport.headersFor(method, url),
      },
      body: bytes ?? (options.body === undefined ? null : JSON.stringify(options.body)),
      signal: options.signal ?? null,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError({ status: 0, code: 'network_error', message: 'No connection' });
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const code = (body as { svc_error?: { code?: string } } | undefined)?.svc_error?.code;
    throw (
      options.unavailable?.(response.status, code, body) ??
      ApiError.fromResponse(response.status, response.headers, body)
    );
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error('The server answered in a form this page cannot read.');
  return parsed.data;
}
