/**
 * Whether a listing write's body takes the listing off sale by its status. The marketplace reads
 * `status` in every body form it accepts (`{listing}`, `{product}`, `variants[0]`, `svc_status`);
 * any status but `active` is a deactivation. A body naming a status key more often than its parsed
 * form shows (a duplicate key, read one way here and maybe another upstream) counts as one too.
 */
import { parseJsonBody } from '../../shared/json-body';

const ACTIVE = 'active';
/** In any letter case too: a lenient reader upstream must not see a status this check missed. */
const isStatusKey = (key: string) => ['status', 'svc_status'].includes(key.toLowerCase());

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Every status value in the parsed body, at any depth. */
function statusValues(value: unknown, found: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) statusValues(item, found);
  else if (isObject(value)) {
    for (const [key, inner] of Object.entries(value)) {
      if (isStatusKey(key)) found.push(inner);
      statusValues(inner, found);
    }
  }
  return found;
}

/** The status keys written in the text: each JSON string followed by a colon is a key. */
function statusKeysWritten(text: string): number {
  let count = 0;
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"\s*:/g)) {
    const token = match[0].slice(0, match[0].lastIndexOf('"') + 1);
    try {
      if (isStatusKey(JSON.parse(token) as string)) count += 1;
    } catch {
      count += 1;
    }
  }
  return count;
}

export function setsInactiveStatus(body: Buffer | string): boolean {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  // Read with the project's depth bound: a body too deep to walk cannot be vouched for.
  const verdict = parseJsonBody(text);
  if (verdict.kind === 'too_deep') return true;
  // The marketplace refuses a body it cannot parse, so it changes no status.
  if (verdict.kind !== 'json') return false;
  const values = statusValues(verdict.value);
  if (values.some((value) => value !== ACTIVE)) return true;
  return statusKeysWritten(text) !== values.length;
}
