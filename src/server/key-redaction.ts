import { MAX_JSON_DEPTH, parseBoundedJson } from './bounded-json';

/**
 * The key kept off the page in every form an upstream could echo it in (JSON-escaped,
 * percent-encoded, base64 at any alignment, combined): the text is decoded and the decoded forms
 * searched, since matching every encoding would never end.
 */
export const REDACTED = '[redacted]';

const hex2 = (code: number) => code.toString(16).padStart(2, '0');

/** The forms to search for: the key, and per alignment its base64 core, in both alphabets. */
function formsOf(key: string): string[] {
  const forms = new Set<string>([key]);
  const bytes = Buffer.from(key, 'utf8');
  for (let align = 0; align < 3; align++) {
    const padded = Buffer.concat([Buffer.alloc(align), bytes]);
    const encoded = padded.toString('base64');
    // Whole 3-byte groups inside the key only: the first starts at ceil(align / 3) groups.
    const from = Math.ceil(align / 3) * 4;
    const to = Math.floor((align + bytes.length) / 3) * 4;
    const core = encoded.slice(from, to);
    if (core.length >= 8) {
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...forms];
}

const JSON_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** The text with JSON string escapes decoded (anywhere: the text need not be JSON). */
function jsonUnescaped(text: string): string {
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, (_, code?: string, one?: string) =>
    code !== undefined ? String.fromCharCode(parseInt(code, 16)) : JSON_ESCAPES[one!]!,
  );
}

/** The text with `%XX` decoded byte by byte as Latin-1 (enough for an ASCII key). */
function percentDecoded(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, code: string) =>
    String.fromCharCode(parseInt(code, 16)),
  );
}

/** A key's search plan: its forms, and a quick test of whether a text needs decoding first. */
export interface KeyMatcher {
  forms: readonly string[];
  /** Matches an escape that could stand for a character of one of the forms. */
  escape: RegExp;
}

const matchers = new Map<string, KeyMatcher>();

export function keyMatcher(key: string): KeyMatcher {
  let matcher = matchers.get(key);
  if (!matcher) {
    const forms = formsOf(key);
    const codes = new Set<string>();
    for (const form of forms) for (const char of form) codes.add(hex2(char.charCodeAt(0)));
    // JSON's short escapes that stand for a character of a form (`\/` in base64, say).
    const shortEscapes = Object.entries(JSON_ESCAPES)
      .filter(([, char]) => forms.some((form) => form.includes(char)))
      .map(([letter]) => (letter === '\\' ? '\\\\' : letter));
    const alternatives = [...codes].join('|');
    const short = shortEscapes.length > 0 ? `|\\\\[${shortEscapes.join('')}]` : '';
    matcher = {
      forms,
      escape: new RegExp(`\\\\u00(?:${alternatives})|%(?:${alternatives})${short}`, 'i'),
    };
    matchers.set(key, matcher);
  }
  return matcher;
}

/** Whether `text` holds the key in any of the forms and encodings above. */
export function carriesKey(text: string, key: string): boolean {
  if (!key) return false;
  const { forms, escape } = keyMatcher(key);
  const holds = (candidate: string) => forms.some((form) => candidate.includes(form));
  if (holds(text)) return true;
  if (!escape.test(text)) return false;
  const unescaped = jsonUnescaped(text);
  const decoded = percentDecoded(text);
  return (
    holds(unescaped) ||
    holds(decoded) ||
    holds(percentDecoded(unescaped)) ||
    holds(jsonUnescaped(decoded))
  );
}

/** A quick look at raw bytes: false means the key is in none of its forms (no decoding done). */
export function mayCarryKey(body: Buffer, key: string): boolean {
  if (!key) return false;
  const { forms, escape } = keyMatcher(key);
  if (forms.some((form) => body.includes(form))) return true;
  // Every escape starts with one of these: most pages have none, and need no string made.
  if (!body.includes('%') && !body.includes('\\')) return false;
  return escape.test(body.toString('latin1'));
}

/** A header value, or the redaction mark when it holds the key in any form. */
export function redactText(text: string, key: string): string {
  if (!carriesKey(text, key)) return text;
  const plain = text.split(key).join(REDACTED);
  return carriesKey(plain, key) ? REDACTED : plain;
}

/**
 * A parsed JSON value with every string or key holding the key redacted; iterative, so no depth
 * overflows the stack.
 */
export function redactValue(value: unknown, key: string): unknown {
  const root: { value: unknown } = { value };
  const stack: { holder: Record<string, unknown> | unknown[]; slot: string | number }[] = [
    { holder: root as Record<string, unknown>, slot: 'value' },
  ];
  while (stack.length > 0) {
    const { holder, slot } = stack.pop()!;
    const current = (holder as Record<string | number, unknown>)[slot];
    if (typeof current === 'string') {
      (holder as Record<string | number, unknown>)[slot] = redactText(current, key);
    } else if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) stack.push({ holder: current, slot: i });
    } else if (current !== null && typeof current === 'object') {
      const object = current as Record<string, unknown>;
      for (const name of Object.keys(object)) {
        const safe = redactText(name, key);
        if (safe !== name) {
          object[safe] = object[name];
          delete object[name];
        }
        stack.push({ holder: object, slot: safe });
      }
    }
  }
  return root.value;
}

/** A JSON body redacted in every form; undefined when it is not JSON. */
export function redactJsonBody(text: string, key: string): { value: unknown } | undefined {
  const parsed = parseBoundedJson(text, MAX_JSON_DEPTH);
  return parsed.ok ? { value: redactValue(parsed.value, key) } : undefined;
}
