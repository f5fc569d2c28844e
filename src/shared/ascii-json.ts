import { isAscii } from 'node:buffer';

const HEX = '0123456789abcdef';

/** Writes `\\uXXXX` for one UTF-16 code unit at `at`; returns the next position. */
function writeEscape(out: Buffer, at: number, unit: number): number {
  out[at] = 0x5c; // backslash
  out[at + 1] = 0x75; // u
  for (let shift = 12, i = 2; shift >= 0; shift -= 4, i++) {
    out[at + i] = HEX.charCodeAt((unit >> shift) & 15);
  }
  return at + 6;
}

/** The length of the UTF-8 sequence led by `lead` (0: not a lead byte). */
const sequenceLength = (lead: number) =>
  lead >= 0xc2 && lead <= 0xdf
    ? 2
    : lead >= 0xe0 && lead <= 0xef
      ? 3
      : lead >= 0xf0 && lead <= 0xf4
        ? 4
        : 0;

/** A JSON body in ASCII (`\\u` escapes), so a browser decodes a one-byte string. */
export function asciiJson(body: Buffer): Buffer {
  if (isAscii(body)) return body;
  // At most three times longer: two bytes become six, four become twelve.
  const out = Buffer.allocUnsafe(body.length * 3);
  let written = 0;
  let copied = 0;
  // The bytes as Latin-1 text: a regular expression finds the next byte past ASCII far faster
  // than a loop over every byte.
  const bytes = body.toString('latin1');
  const high = /[\x80-\xff]/g;
  for (let found = high.exec(bytes); found !== null; found = high.exec(bytes)) {
    const i = found.index;
    const lead = body[i]!;
    const length = sequenceLength(lead);
    if (length === 0 || i + length > body.length) return body;
    let point = lead & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const next = body[i + k]!;
      if ((next & 0xc0) !== 0x80) return body;
      point = (point << 6) | (next & 0x3f);
    }
    written += body.copy(out, written, copied, i);
    if (point >= 0x10000) {
      const offset = point - 0x10000;
      written = writeEscape(out, written, 0xd800 + (offset >> 10));
      written = writeEscape(out, written, 0xdc00 + (offset & 0x3ff));
    } else {
      written = writeEscape(out, written, point);
    }
    copied = i + length;
    high.lastIndex = copied;
  }
  written += body.copy(out, written, copied, body.length);
  return out.subarray(0, written);
}

// Each UTF-16 code unit past ASCII (a pair's two halves one by one, as `asciiJson` writes them).
const NON_ASCII = /[\u0080-\uffff]/g;
const escapeUnit = (unit: string) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `JSON.stringify(value)` in ASCII: a two-byte string is slower to encode. */
export function asciiJsonText(value: unknown): string {
  return JSON.stringify(value).replace(NON_ASCII, escapeUnit);
}

/** A collection page as ASCII bytes, each row stringified alone, written into sized bytes. */
export function asciiPage(envelope: string, rows: readonly unknown[]): Buffer {
  return asciiRows(`{${JSON.stringify(envelope)}:[`, rows.map(asciiJsonText));
}

/** `head`, then ASCII JSON texts with a comma between, then `]}`, written into sized bytes. */
export function asciiRows(head: string, texts: readonly string[]): Buffer {
  // The head, each row, a comma between rows, and "]}": one byte per character (all ASCII).
  let length = head.length + Math.max(0, texts.length - 1) + 2;
  for (const text of texts) length += text.length;
  // Over an ArrayBuffer of this realm: fastify sends a body as bytes when `body.buffer instanceof
  // ArrayBuffer`, and under a test's jsdom realm a pooled Buffer's memory is not one.
  const bytes = Buffer.from(new ArrayBuffer(length));
  let at = bytes.write(head, 0, 'latin1');
  texts.forEach((text, i) => {
    if (i > 0) bytes[at++] = 0x2c; // ,
    at += bytes.write(text, at, 'latin1');
  });
  bytes[at++] = 0x5d; // ]
  bytes[at] = 0x7d; // }
  return bytes;
}
