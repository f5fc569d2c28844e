import { deflateSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { sandboxUrl } from './support';

/**
 * New listing → Take a photo, in Chromium on a phone's screen: a photo larger than the spec
 * allows is made at most 2,000 px as JPEG in the browser, kept by the hub, and listed by its
 * address (the sandbox of `npm run dev` downloads it from the hub).
 */

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** A PNG of `width` × `height` (a gradient, so it is a picture and not one colour). */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = (x * 255) / width;
      raw[row + 2 + x * 3] = (y * 255) / height;
      raw[row + 3 + x * 3] = 128;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG's width and height, from its start-of-frame marker. */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc3) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  throw new Error('no start of frame');
}

test('a photo from the phone is made 2,000 px JPEG, kept by the hub and listed', async ({
  page,
  request,
}) => {
  const cert = String(7_800_000_000 + Math.floor(Math.random() * 1_000_000));
  const made = await request.post(`${sandboxUrl()}/_sandbox/certs`, {
    data: { cert_number: cert, grader: 'PSA', title: '1986 Test Fleer Camera #57', grade: '8' },
  });
  expect(made.status()).toBe(200);

  await page.goto('/listings/new');
  const form = page.getByRole('form', { name: 'New listing' });
  await form.getByLabel('Cert number').fill(cert);
  await form.getByLabel('Price (USD)').fill('150.00');
  await form.getByLabel('Check the card before it goes live').uncheck();
  await form.getByLabel('Take a photo').setInputFiles({
    name: 'IMG_0001.png',
    mimeType: 'image/png',
    buffer: png(3_000, 1_800),
  });
  const address = form.getByLabel('Photo 1 URL');
  await expect(address).toHaveValue(/\/hub\/photos\/[A-Za-z0-9_-]{24}\.jpg$/, { timeout: 30_000 });
  // Plain http here: the form says the marketplace wants https.
  await expect(form.getByText(/not https/)).toBeVisible();
  const url = await address.inputValue();

  const photo = await request.get(url);
  expect(photo.status()).toBe(200);
  expect(photo.headers()['content-type']).toBe('image/jpeg');
  expect(jpegSize(await photo.body())).toEqual({ width: 2_000, height: 1_200 });

  await form.getByRole('button', { name: 'Create listing' }).click();
  await expect(page.getByRole('heading', { name: 'Listing created' })).toBeVisible({
    timeout: 30_000,
  });
});
