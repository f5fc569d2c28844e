/** A camera photo as JPEG at most 2,000 px long, under the spec's 15 MB. Browser only. */

export const LONGEST_SIDE = 2_000;
export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;

/** The size to draw at: the longest side at most `longest`, the shape kept, never enlarged. */
export function fittedSize(
  width: number,
  height: number,
  longest = LONGEST_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, longest / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** Qualities tried in turn until the JPEG fits the limit. */
const QUALITIES = [0.85, 0.7, 0.5];

export class PhotoNotReadError extends Error {}

export async function downsizePhoto(file: Blob): Promise<Blob> {
  let bitmap: ImageBitmap;
  try {
    // The camera's orientation applied, as the seller saw the picture.
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new PhotoNotReadError('This file could not be read as a photo.');
  }
  const { width, height } = fittedSize(bitmap.width, bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new PhotoNotReadError('This browser cannot resize photos.');
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  for (const quality of QUALITIES) {
    const blob = await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, 'image/jpeg', quality),
    );
    if (blob && blob.size <= MAX_PHOTO_BYTES) return blob;
  }
  throw new PhotoNotReadError('This photo is too large even at a lower quality.');
}
