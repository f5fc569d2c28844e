import * as z from 'zod/mini';
import { SvcError } from '../client/error-schemas';
import { readTolerant } from '../client/tolerant-reader';
import { asciiJson } from '../shared/ascii-json';
import { parseJsonBody } from '../shared/json-body';
import { isRecord } from '../shared/is-record';
import type { UpstreamAnswer } from './upstream-call';

// The key is kept off the page in every form an upstream could echo it in (JSON-escaped,
// percent-encoded, base64 at any alignment): texts are decoded and searched, not every encoding.
const REDACTED = '[redacted]';

/** The key, and per alignment its base64 core in both alphabets. */
function formsOf(key: string): string[] {
  const forms = new Set<string>([key]);
  const bytes = Buffer.from(key, 'utf8');
  for (let align = 0; align < 3; align++) {
    const encoded = Buffer.concat([Buffer.alloc(align), bytes]).toString('base64');
    // Whole 3-byte groups inside the key only: the first starts at ceil(align / 3) groups.
    const core = encoded.slice(
      Math.ceil(align / 3) * 4,
      Math.floor((align + bytes.length) / 3) * 4,
    );
    if (core.length >= 8) {
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...forms];
}

/** JSON's one-letter escapes, read by JSON itself as every other escape is. */
const SHORT_ESCAPES = '"\\/bfnrt';
const jsonUnescape = (escape: string) => JSON.parse(`"${escape}"`) as string;

const jsonUnescaped = (text: string) =>
  text.replace(/\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])/g, jsonUnescape);

// Byte by byte as Latin-1: enough for an ASCII key.
const percentDecoded = (text: string) =>
  text.replace(/%([0-9a-fA-F]{2})/g, (_, code: string) => String.fromCharCode(parseInt(code, 16)));

/** A key's forms, and a test of whether a text holds an escape of one of their characters. */
const matchers = new Map<string, { forms: readonly string[]; escape: RegExp }>();

function keyMatcher(key: string) {
  const known = matchers.get(key);
  if (known) return known;
  const forms = formsOf(key);
  const codes = new Set<string>();
  for (const char of forms.join('')) codes.add(char.charCodeAt(0).toString(16).padStart(2, '0'));
  // JSON's short escapes that stand for a character of a form (`\/` in base64, say).
  const shortEscapes = [...SHORT_ESCAPES]
    .filter((letter) => forms.some((form) => form.includes(jsonUnescape(`\\${letter}`))))
    .map((letter) => (letter === '\\' ? '\\\\' : letter));
  const alternatives = [...codes].join('|');
  const short = shortEscapes.length > 0 ? `|\\\\[${shortEscapes.join('')}]` : '';
  const escape = new RegExp(`\\\\u00(?:${alternatives})|%(?:${alternatives})${short}`, 'i');
  const matcher = { forms, escape };
  matchers.set(key, matcher);
  return matcher;
}

/** Whether `text` holds the key in any of its forms and encodings. */
function carriesKey(text: string, key: string): boolean {
  if (!key) return false;
  const { forms, escape } = keyMatcher(key);
  const holds = (candidate: string) => forms.some((form) => candidate.includes(form));
  if (holds(text)) return true;
  if (!escape.test(text)) return false;
  const [unescaped, decoded] = [jsonUnescaped(text), percentDecoded(text)];
  return [unescaped, decoded, percentDecoded(unescaped), jsonUnescaped(decoded)].some(holds);
}

/** A quick look at raw bytes: false means the key is in none of its forms (no decoding done). */
function mayCarryKey(body: Buffer, key: string): boolean {
  if (!key) return false;
  const { forms, escape } = keyMatcher(key);
  if (forms.some((form) => body.includes(form))) return true;
  // Every escape starts with one of these: most pages have none, and need no string made.
  if (!body.includes('%') && !body.includes('\\')) return false;
  return escape.test(body.toString('latin1'));
}

/** A text, or the redaction mark when it holds the key in any form. */
export function redactText(text: string, key: string): string {
  if (!carriesKey(text, key)) return text;
  const plain = text.split(key).join(REDACTED);
  return carriesKey(plain, key) ? REDACTED : plain;
}

/** A parsed JSON value (depth bounded by its parse) as ASCII JSON, every string or name redacted. */
const redactedJson = (value: unknown, key: string) => {
  const json = JSON.stringify(value, (_name, member: unknown) => {
    if (typeof member === 'string') return redactText(member, key);
    if (!isRecord(member)) return member;
    return Object.fromEntries(Object.entries(member).map(([n, v]) => [redactText(n, key), v]));
  });
  return asciiJson(Buffer.from(json));
};

// The svc_error members the page reads (its client's own schema, read member by member), and
// the sandbox's `required_scope`.
const Svc = z.extend(SvcError, { required_scope: z.optional(z.string()) });
const isMessages = (value: unknown) =>
  Array.isArray(value) && value.every((one) => typeof one === 'string');

/** An error envelope rebuilt from known members only: no echoed header, stack or key comes along. */
function rebuiltEnvelope(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const read = readTolerant(Svc, value.svc_error, 'code');
  const { errors } = value;
  if (!read.ok || (typeof errors !== 'string' && !isRecord(errors))) return undefined;
  const { unreadable: _unreadable, absent: _absent, ...svc } = read.value;
  // Field names come from requests: kept as data (fromEntries), each whose messages are strings.
  const fields = isRecord(errors)
    ? Object.fromEntries(Object.entries(errors).filter(([, messages]) => isMessages(messages)))
    : errors;
  return { errors: fields, svc_error: { ...svc, request_id: svc.request_id ?? null } };
}

/** The body the browser sees: an error's envelope rebuilt and redacted; a 2xx redacted if need be. */
export function answerBody(answer: UpstreamAnswer, key: string, contentType = ''): Buffer {
  const json = /\bjson\b/.test(contentType);
  const text = () => answer.body.toString('utf8');
  if (answer.status < 200 || answer.status >= 300) {
    const parsed = parseJsonBody(text());
    const envelope = parsed.kind === 'json' ? rebuiltEnvelope(parsed.value) : undefined;
    return envelope ? redactedJson(envelope, key) : Buffer.alloc(0);
  }
  if (!mayCarryKey(answer.body, key) || !carriesKey(text(), key)) {
    return json ? asciiJson(answer.body) : answer.body;
  }
  const parsed = json ? parseJsonBody(text()) : undefined;
  if (parsed?.kind !== 'json') return Buffer.from(REDACTED);
  return redactedJson(parsed.value, key);
}
