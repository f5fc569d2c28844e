import { ApiError, CLIENT_ERROR_CODES } from './api-error';

/** The absolute URL of a path under `baseUrl/version`, or of a `Link` target. */
export function resolveApiUrl(
  baseUrl: string,
  version: string,
  path: string,
  query?: Record<string, string | number | undefined>,
): string {
  const origin = typeof location === 'undefined' ? undefined : location.href;
  if (origin === undefined && !/^https?:\/\//i.test(baseUrl)) {
    throw new TypeError(
      `baseUrl "${baseUrl}" is relative: outside a browser give a full URL such as http://127.0.0.1:4010`,
    );
  }
  const root = `${baseUrl}/${version}`;
  let url: URL;
  if (/^https?:\/\//i.test(path)) {
    url = rebase(baseUrl, version, new URL(path));
  } else if (path.startsWith('/')) {
    url = new URL(`${root}${path}`, origin);
  } else {
    url = new URL(path, `${new URL(root, origin).href}/`);
  }
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.href;
}

/** A `Link` target elsewhere moves onto our base URL: the key goes to our API only. */
function rebase(baseUrl: string, version: string, target: URL): URL {
  const origin = typeof location === 'undefined' ? undefined : location.href;
  const base = new URL(`${baseUrl}/`, origin);
  if (target.origin === base.origin && target.pathname.startsWith(base.pathname)) return target;
  const marker = `/${version}/`;
  const at = target.pathname.indexOf(marker);
  if (at < 0) {
    throw new ApiError({
      status: 0,
      code: CLIENT_ERROR_CODES.badResponse,
      message: `A Link points outside the API: ${target.href}`,
    });
  }
  return new URL(`${baseUrl}${target.pathname.slice(at)}${target.search}`, base.href);
}
