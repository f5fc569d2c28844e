/**
 * JSON as ASCII bytes: every character past U+007F written as its `\uXXXX` escape (the same JSON
 * value to any parser). The demo's names (Dončić, a curly apostrophe) make a whole page of JSON a
 * two-byte string, which the HTTP write then measures and encodes to UTF-8 on its own, and which
 * the browser decodes back from UTF-8 off its ASCII fast path. Encoded once here and escaped, a
 * page costs one pass in Node and decodes as ASCII in the browser. Measured on the insights visit
 * of 10,000 listings (54 pages, 8 MB): about 130 ms less Node CPU, 80 ms less Chrome CPU.
 */
const BACKSLASH_U = [0x5c, 0x75];
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** Writes `\uXXXX` for one UTF-16 code unit at `at`; returns the next position. */
function writeEscape(out: Buffer, at: number, unit: number): number {
  out[at] = BACKSLASH_U[0]!;
  out[at + 1] = BACKSLASH_U[1]!;
  out[at + 2] = HEX[(unit >> 12) & 15]!;
  out[at + 3] = HEX[(unit >> 8) & 15]!;
  out[at + 4] = HEX[(unit >> 4) & 15]!;
  out[at + 5] = HEX[unit & 15]!;
  return at + 6;
}

/** The UTF-8 bytes of `json` with every multi-byte sequence replaced by its escape(s). */
function escapeUtf8(utf8: Buffer): Buffer {
  // A sequence of n bytes (2 to 4) becomes 6 bytes, or 12 for a surrogate pair: at most 3× the input.
  const out = Buffer.allocUnsafe(utf8.length * 3);
  let at = 0;
  let from = 0;
  let i = 0;
  while (i < utf8.length) {
    const byte = utf8[i]!;
    if (byte < 0x80) {
      i++;
      continue;
    }
    at += utf8.copy(out, at, from, i);
    let point: number;
    if (byte < 0xe0) {
      point = ((byte & 0x1f) << 6) | (utf8[i + 1]! & 0x3f);
      i += 2;
    } else if (byte < 0xf0) {
      point = ((byte & 0x0f) << 12) | ((utf8[i + 1]! & 0x3f) << 6) | (utf8[i + 2]! & 0x3f);
      i += 3;
    } else {
      point =
        ((byte & 0x07) << 18) |
        ((utf8[i + 1]! & 0x3f) << 12) |
        ((utf8[i + 2]! & 0x3f) << 6) |
        (utf8[i + 3]! & 0x3f);
      i += 4;
    }
    if (point >= 0x10000) {
      const offset = point - 0x10000;
      at = writeEscape(out, at, 0xd800 | (offset >> 10));
      at = writeEscape(out, at, 0xdc00 | (offset & 0x3ff));
    } else {
      at = writeEscape(out, at, point);
    }
    from = i;
  }
  at += utf8.copy(out, at, from, utf8.length);
  return out.subarray(0, at);
}

/** `JSON.stringify(value)` as ASCII bytes, ready to write. */
export function asciiJson(value: unknown): Buffer {
  const json = JSON.stringify(value);
  const utf8 = Buffer.from(json, 'utf8');
  return utf8.length === json.length ? utf8 : escapeUtf8(utf8);
}
