import { describe, expect, it } from 'vitest';
import { graderOfHost, normalizeCert, readScan } from '../../src/lib/cert-scan';

describe('readScan: what a slab label says', () => {
  it("reduces CGC's QR lookup URL to its cert and names CGC", () => {
    expect(readScan('https://www.cgccards.com/certlookup/4123456001/')).toEqual({
      kind: 'cert',
      cert: '4123456001',
      grader: 'CGC',
      text: 'https://www.cgccards.com/certlookup/4123456001/',
    });
  });

  it("reduces PSA's QR URL ending in /cert/<N> to its cert and names PSA", () => {
    const reading = readScan('https://www.psacard.com/cert/82432146/psa');
    expect(reading).toMatchObject({ kind: 'cert', cert: '82432146', grader: 'PSA' });
    expect(readScan('HTTPS://PSACARD.COM/cert/82432146')).toMatchObject({
      cert: '82432146',
      grader: 'PSA',
    });
  });

  it('takes a cert at the end of an unknown host, with no grader named', () => {
    expect(readScan('https://example.org/slab/cert/12345678')).toMatchObject({
      kind: 'cert',
      cert: '12345678',
      grader: undefined,
    });
    expect(readScan('gosgc.com/cert/1234567')).toMatchObject({ cert: '1234567', grader: 'SGC' });
  });

  it('reads bare digits (a PSA 1D barcode, a typed cert) as a cert of no named grader', () => {
    expect(readScan('82432146')).toEqual({
      kind: 'cert',
      cert: '82432146',
      grader: undefined,
      text: '82432146',
    });
    expect(readScan(' 8243 2146 ')).toMatchObject({ cert: '82432146' });
    expect(readScan('0012345678')).toMatchObject({ cert: '0012345678' });
  });

  it('shows anything else as read: too short, too long, words, a URL without a cert', () => {
    for (const text of [
      '123456',
      '12345678901',
      'SL-4F2K9Q',
      'https://www.psacard.com/',
      'https://www.psacard.com/cert/abc',
      'javascript:alert(1)',
      '',
    ]) {
      expect(readScan(text), text).toEqual({ kind: 'other', text: text.trim() });
    }
  });

  it('keeps a very long scan bounded', () => {
    const reading = readScan('x'.repeat(10_000));
    expect(reading.kind).toBe('other');
    expect(reading.text.length).toBeLessThanOrEqual(2048);
  });

  it('names graders by host, subdomains included, and no look-alike host', () => {
    expect(graderOfHost('www.psacard.com')).toBe('PSA');
    expect(graderOfHost('cgccards.com')).toBe('CGC');
    expect(graderOfHost('www.beckett.com')).toBe('BGS');
    expect(graderOfHost('psacard.com.evil.example')).toBeUndefined();
    expect(graderOfHost('notpsacard.com')).toBeUndefined();
  });

  it('normalizes typed certs: spaces and dashes out, 7 to 10 digits', () => {
    expect(normalizeCert('824-321-46')).toBe('82432146');
    expect(normalizeCert('123456')).toBeUndefined();
    expect(normalizeCert('12345678a')).toBeUndefined();
  });
});
