export const CURRENT_VERSION = '2026-07';

export const SUPPORTED_VERSIONS = [
  { version: '2026-07', status: 'current', released: '2026-07-01', sunset: '2027-07-01' },
] as const;

export function isSupportedVersion(version: string): boolean {
  return SUPPORTED_VERSIONS.some((v) => v.version === version);
}
