import { sessionStore as session } from '../local-store';

/**
 * Which kept copies had their store checked (the oldest row's fingerprint) in this browser session:
 * a reload in the same tab trusts the check made when the session began; a new tab checks again.
 */
const KEY = 'slabdesk.kept.store-checked.v1';

function checked(): string[] {
  try {
    const parsed: unknown = JSON.parse(session()?.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((item) => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

export function storeCheckedThisSession(scope: string): boolean {
  return checked().includes(scope);
}

export function noteStoreChecked(scope: string): void {
  const list = checked().filter((item) => item !== scope);
  list.push(scope);
  try {
    session()?.setItem(KEY, JSON.stringify(list.slice(-20)));
  } catch {
    // No session storage: every visit checks the store, as it did before.
  }
}
