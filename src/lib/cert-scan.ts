/** What a scanned slab label says: a grader URL, a URL ending in its cert, digits, or else. */
import { safeDecode } from '../shared/safe-decode';

/** The graders a lookup host names; bare digits name none and are matched across them. */
export type ScanGrader = 'PSA' | 'BGS' | 'SGC' | 'CGC';

export type ScanReading =
  | { kind: 'cert'; cert: string; grader: ScanGrader | undefined; text: string }
  | { kind: 'other'; text: string };

/** A cert number as graders print it: 7 to 10 digits (some labels pad with leading zeros). */
const CERT_DIGITS = /^\d{7,10}$/;
/** A scan longer than this is not a label's code: kept only as "read", never parsed. */
const MAX_SCAN_LENGTH = 2048;

const HOST_GRADERS: readonly { host: RegExp; grader: ScanGrader }[] = [
  { host: /(^|\.)psacard\.com$/, grader: 'PSA' },
  { host: /(^|\.)cgccards\.com$/, grader: 'CGC' },
  { host: /(^|\.)cgccomics\.com$/, grader: 'CGC' },
  { host: /(^|\.)beckett\.com$/, grader: 'BGS' },
  { host: /(^|\.)gosgc\.com$/, grader: 'SGC' },
  { host: /(^|\.)sgccard\.com$/, grader: 'SGC' },
];

/** The path segments that come before a cert in graders' lookup URLs. */
const CERT_SEGMENTS = new Set(['cert', 'certlookup', 'certverification', 'verify', 'lookup']);

/** The grader a host belongs to, if it is one we know. */
export function graderOfHost(host: string): ScanGrader | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  return HOST_GRADERS.find((entry) => entry.host.test(name))?.grader;
}

/** A cert with spaces and dashes out; undefined unless 7 to 10 digits. Leading zeros stay. */
export function normalizeCert(text: string): string | undefined {
  const digits = text.trim().replace(/[\s-]/g, '');
  return CERT_DIGITS.test(digits) ? digits : undefined;
}

function certFromUrl(url: URL): string | undefined {
  const segments = url.pathname.split('/').filter(Boolean);
  // The segment after a known word (`/cert/<N>`, `/certlookup/<N>/`) first, then the last one.
  for (let i = 0; i < segments.length - 1; i++) {
    if (CERT_SEGMENTS.has(segments[i]!.toLowerCase())) {
      const cert = normalizeCert(decoded(segments[i + 1]!));
      if (cert) return cert;
    }
  }
  const last = segments.at(-1);
  const fromPath = last ? normalizeCert(decoded(last)) : undefined;
  if (fromPath) return fromPath;
  for (const key of ['cert', 'certNumber', 'certnumber', 'CertNo', 'id']) {
    const value = url.searchParams.get(key);
    const cert = value ? normalizeCert(value) : undefined;
    if (cert) return cert;
  }
  return undefined;
}

/** A path segment decoded, or as written when it does not decode (a hostile label's `%E0%A4%A`). */
const decoded = (segment: string): string => safeDecode(segment) ?? segment;

function parseUrl(text: string): URL | undefined {
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
    ? text
    : /^[a-z0-9-]+(\.[a-z0-9-]+)+\//i.test(text)
      ? `https://${text}`
      : undefined;
  if (!candidate) return undefined;
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** What a scanned (or typed) code means: a cert, with its grader when the URL names one. */
export function readScan(raw: string): ScanReading {
  const text = raw.length > MAX_SCAN_LENGTH ? raw.slice(0, MAX_SCAN_LENGTH) : raw;
  const trimmed = text.trim();
  const digits = normalizeCert(trimmed);
  if (digits) return { kind: 'cert', cert: digits, grader: undefined, text: trimmed };
  const url = parseUrl(trimmed);
  if (url) {
    const cert = certFromUrl(url);
    if (cert) return { kind: 'cert', cert, grader: graderOfHost(url.hostname), text: trimmed };
  }
  return { kind: 'other', text: trimmed };
}
