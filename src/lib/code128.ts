/** Code 128 set B (ISO/IEC 15417); checksum = start + sum of value × position, mod 103. */
// The standard's table of bar/space widths by symbol value (0-106), thirteen a line.
export const CODE128_WIDTHS: readonly string[] = `
  212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 112232
  122132 122231 113222 123122 123221 223211 221132 221231 213212 223112 312131 311222 321122
  321221 312212 322112 322211 212123 212321 232121 111323 131123 131321 112313 132113 132311
  211313 231113 231311 112133 112331 132131 113123 113321 133121 313121 211331 231131 213113
  213311 213131 311123 311321 331121 312113 312311 332111 314111 221411 431111 111224 111422
  121124 121421 141122 141221 112214 112412 122114 122411 142112 142211 241211 221114 413111
  241112 134111 111242 121142 121241 114212 124112 124211 411212 421112 421211 212141 214121
  412121 111143 111341 131141 114113 114311 411113 411311 113141 114131 311141 411131 211412
  211214 211232 2331112
`
  .trim()
  .split(/\s+/);
export const START_B = 104;
export const STOP = 106;

/** The symbol values of `text` in code set B, with start, checksum and stop. */
export function code128Values(text: string): number[] {
  const values = [START_B];
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (ch.length !== 1 || code < 32 || code > 126) {
      throw new RangeError(`Code 128 B cannot encode ${JSON.stringify(ch)}`);
    }
    values.push(code - 32);
  }
  let sum = START_B;
  for (let i = 1; i < values.length; i++) sum += values[i]! * i;
  values.push(sum % 103, STOP);
  return values;
}

/** The bars as modules: `1` a dark module, `0` a light one (without the quiet zones). */
export function code128Modules(text: string): string {
  let modules = '';
  for (const value of code128Values(text)) {
    const widths = CODE128_WIDTHS[value]!;
    for (let i = 0; i < widths.length; i++) {
      modules += (i % 2 === 0 ? '1' : '0').repeat(Number(widths[i]));
    }
  }
  return modules;
}
