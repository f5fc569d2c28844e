/**
 * A percent-encoded text decoded, or null when it does not decode (`%E0%A4%A`): the one way we
 * decode what a stranger wrote (a path, a scanned label), so a bad escape never throws.
 */
export function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
