import { asciiJson } from '../shared/ascii-json';
import { isRecord, MAX_JSON_DEPTH, parseBoundedJson } from './bounded-json';
import { carriesKey, mayCarryKey, REDACTED, redactJsonBody, redactValue } from './key-redaction';
import type { UpstreamAnswer } from './upstream-call';

/** The `svc_error` members the page reads (the spec's, the sandbox's, and the governor's own). */
const STRING_MEMBERS = ['code', 'reason', 'required_scope', 'until'] as const;
const NUMBER_MEMBERS = ['max_bytes', 'retry_after_seconds'] as const;

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;

/**
 * An upstream error envelope rebuilt from known members only, so nothing else (an echoed header, a
 * stack, a key) comes along; undefined when not an envelope.
 */
export function rebuiltEnvelope(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value) || !isRecord(value.svc_error)) return undefined;
  const source = value.svc_error;
  if (typeof source.code !== 'string') return undefined;
  let errors: string | Record<string, string[]>;
  if (typeof value.errors === 'string') errors = value.errors;
  else if (isRecord(value.errors)) {
    // Field names come from requests: a map without a prototype keeps every name data.
    errors = Object.create(null) as Record<string, string[]>;
    for (const [field, messages] of Object.entries(value.errors)) {
      const list = strings(messages);
      if (list) errors[field] = list;
    }
  } else return undefined;
  const svc: Record<string, unknown> = {
    request_id:
      typeof source.request_id === 'string' || source.request_id === null
        ? source.request_id
        : null,
  };
  for (const name of STRING_MEMBERS) if (typeof source[name] === 'string') svc[name] = source[name];
  for (const name of NUMBER_MEMBERS) {
    if (typeof source[name] === 'number' && Number.isFinite(source[name])) svc[name] = source[name];
  }
  const changed = strings(source.changed_params);
  if (changed) svc.changed_params = changed;
  if (Array.isArray(source.supported_versions)) {
    svc.supported_versions = source.supported_versions.filter(isRecord).map((entry) => {
      const version: Record<string, unknown> = {};
      for (const name of ['version', 'status', 'released', 'sunset']) {
        const member = entry[name];
        if (typeof member === 'string' || (name === 'sunset' && member === null)) {
          version[name] = member;
        }
      }
      return version;
    });
  }
  return { errors, svc_error: { code: source.code, ...svc } };
}

const EMPTY = Buffer.alloc(0);

/**
 * The body the browser sees, never with the key: an error's envelope rebuilt then redacted (no
 * envelope: no body); a 2xx as it is, unless it may carry the key, then redacted field by field.
 */
export function answerBody(
  answer: UpstreamAnswer,
  apiKey: string,
  contentType: string | undefined,
): Buffer {
  const json = /\bjson\b/.test(contentType ?? '');
  const text = () => answer.body.toString('utf8');
  if (answer.status < 200 || answer.status >= 300) {
    if (answer.body.length === 0) return EMPTY;
    const parsed = parseBoundedJson(text(), MAX_JSON_DEPTH);
    const envelope = parsed.ok ? rebuiltEnvelope(parsed.value) : undefined;
    if (!envelope) return EMPTY;
    return asciiJson(Buffer.from(JSON.stringify(redactValue(envelope, apiKey))));
  }
  if (!mayCarryKey(answer.body, apiKey) || !carriesKey(text(), apiKey)) {
    return json ? asciiJson(answer.body) : answer.body;
  }
  const redacted = json ? redactJsonBody(text(), apiKey) : undefined;
  if (!redacted) return Buffer.from(REDACTED);
  return asciiJson(Buffer.from(JSON.stringify(redacted.value)));
}
