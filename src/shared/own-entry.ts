/** A table's entry for a key from outside (a code, a field's name), never an inherited member (`constructor`). */
export const ownEntry = <T>(
  table: Readonly<Record<string, T>>,
  key: string | null | undefined,
): T | undefined => (key != null && Object.hasOwn(table, key) ? table[key] : undefined);
