/** What counts as a credential in a query string, for sandbox (401) and proxy (dropped). */
const CREDENTIAL_NAME =
  /^(access[_-]?token|api[_-]?key|apikey|key|token|auth|authorization|password|secret|x[_-]service[_-]access[_-]token)$/i;
const KEY_VALUE = /svc_(live|test)_/i;

export function isCredentialParam(name: string, value: string | undefined): boolean {
  return CREDENTIAL_NAME.test(name.trim()) || (value !== undefined && KEY_VALUE.test(value));
}

/** True when the parsed query carries anything that looks like a credential. */
export function queryCarriesCredential(query: Record<string, unknown>): boolean {
  for (const [name, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    if (isCredentialParam(name, undefined)) return true;
    if (values.some((v) => typeof v === 'string' && isCredentialParam(name, v))) return true;
  }
  return false;
}
