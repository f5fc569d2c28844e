/** This browser's localStorage, or undefined where there is none or it is refused. */
export function localStore(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
