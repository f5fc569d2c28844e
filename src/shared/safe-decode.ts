/** Percent-decoded text, or null when it does not decode: a bad escape never throws. */
export function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
