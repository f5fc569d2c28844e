import { request as httpRequest } from 'node:http';

/**
 * Raw HTTP over `node:http`, so the test sets Host, Origin, Cookie and Sec-Fetch-* exactly (fetch
 * forbids some) and sees the answer as sent (a gzipped body stays bytes).
 */
export interface RawOptions {
  method?: string;
  /** Sent as given, over a `host` that defaults to the URL's own. */
  headers?: Record<string, string>;
  body?: string;
  /**
   * Send the body in one piece with its Content-Length, as a webhook sender does. By default it is
   * written before the request ends, so a body on a POST goes chunked.
   */
  whole?: boolean;
}
export interface RawAnswer<B = string> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: B;
}

/** One request to `path` on the server at `url`; the body answered as bytes. */
export function rawBytes(
  url: string,
  path: string,
  options: RawOptions = {},
): Promise<RawAnswer<Buffer>> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path,
        method: options.method ?? 'GET',
        headers: { host: target.host, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    if (options.whole) {
      req.end(options.body);
      return;
    }
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** The same, with the body as text. */
export async function raw(
  url: string,
  path: string,
  options: RawOptions = {},
): Promise<RawAnswer<string>> {
  const answer = await rawBytes(url, path, options);
  return { ...answer, body: answer.body.toString('utf8') };
}
