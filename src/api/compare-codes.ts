/** Orders machine strings (instants, months, ids) by code unit, without starting ICU's collator. */
export function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const NUMBER = /^\d+(?:\.\d+)?$/;

/** The same, with codes that are numbers ("9.5", "10": grades) in numeric order, before others. */
export function compareCodesNumerically(a: string, b: string): number {
  const aNumber = NUMBER.test(a);
  const bNumber = NUMBER.test(b);
  if (aNumber && bNumber) return Number(a) - Number(b) || compareCodes(a, b);
  if (aNumber !== bNumber) return aNumber ? -1 : 1;
  return compareCodes(a, b);
}
