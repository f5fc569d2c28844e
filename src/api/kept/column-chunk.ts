/** Rows stored column by column for IndexedDB (docs/decisions/004-kept.md); lossless for JSON. */

/** What a column holds: a value per row of its shape group. */
type Column =
  /** Few distinct values: each row's index into `d`. */
  | { d: unknown[]; i: Uint8Array | Uint16Array }
  /** Strings joined by SEPARATOR, except rows `x` holding `xv`, so the text is one byte a char. */
  | { j: string; x?: Uint16Array; xv?: unknown[] }
  /** The values of an earlier column of the group, except at rows `x` (`xv`). */
  | { r: number; x?: Uint16Array; xv?: unknown[] }
  /** Anything else, as it is. */
  | { v: unknown[] };

/** The keys of an object in order; a nested plain object's entry holds its own shape. */
type Shape = [key: string, nested: Shape | 0][];

interface ShapeGroup {
  shape: Shape;
  /** The shape's leaves (values that are not plain objects) in order, one column each. */
  columns: Column[];
}

export interface ColumnChunk {
  /** How many rows. */
  n: number;
  groups: ShapeGroup[];
  /** Each row's group, by position; absent when every row has the first group's shape. */
  groupOf?: Uint8Array | Uint16Array;
}

const SEPARATOR = '\u0001';
/** Most rows in one chunk, and most values in a dictionary: positions and indexes are 16-bit. */
const MAX_ROWS = 65_535;
/** A column whose distinct values are at most this share of its rows is kept as a dictionary. */
const DICTIONARY_SHARE = 4;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The shape's text (its key), or undefined when a key cannot be written back plainly. */
function shapeKey(row: Record<string, unknown>): string | undefined {
  let key = '';
  for (const name in row) {
    if (name === '__proto__') return undefined;
    const value = row[name];
    if (isPlainObject(value)) {
      const nested = shapeKey(value);
      if (nested === undefined) return undefined;
      key += `${name.length}:${name}{${nested}}`;
    } else key += `${name.length}:${name},`;
  }
  return key;
}

function shapeOf(row: Record<string, unknown>): Shape {
  const shape: Shape = [];
  for (const name in row) {
    const value = row[name];
    shape.push([name, isPlainObject(value) ? shapeOf(value) : 0]);
  }
  return shape;
}

function pushLeaves(row: Record<string, unknown>, columns: unknown[][]): void {
  let at = 0;
  const walk = (object: Record<string, unknown>) => {
    for (const name in object) {
      const value = object[name];
      if (isPlainObject(value)) walk(value);
      else columns[at++]!.push(value);
    }
  };
  walk(row);
}

function leafCount(shape: Shape): number {
  let count = 0;
  for (const [, nested] of shape) count += nested === 0 ? 1 : leafCount(nested);
  return count;
}

/** Rows `values` and `other` differ at, or undefined past `limit` of them. */
function differences(values: unknown[], other: unknown[], limit: number): number[] | undefined {
  const at: number[] = [];
  for (let k = 0; k < values.length; k++) {
    if (!Object.is(values[k], other[k]) && at.push(k) > limit) return undefined;
  }
  return at;
}

/** The earlier column these values repeat, with the fewest exceptions (at most `limit`). */
function sameAsEarlier(values: unknown[], earlier: unknown[][], limit: number): Column | undefined {
  let best: { r: number; at: number[] } | undefined;
  for (let r = 0; r < earlier.length; r++) {
    const at = differences(values, earlier[r]!, best ? best.at.length - 1 : limit);
    if (at && (!best || at.length < best.at.length)) best = { r, at };
    if (best?.at.length === 0) break;
  }
  if (!best) return undefined;
  if (best.at.length === 0) return { r: best.r };
  return { r: best.r, x: Uint16Array.from(best.at), xv: best.at.map((k) => values[k]) };
}

function encodeColumn(values: unknown[], earlier: unknown[][]): Column {
  const n = values.length;
  const limit = Math.min(n / DICTIONARY_SHARE, MAX_ROWS);
  const dictionary = new Map<unknown, number>();
  for (const value of values) {
    // A Map takes -0 for 0: a column holding one is kept as it is.
    if (Object.is(value, -0)) return { v: values };
    if (!dictionary.has(value)) dictionary.set(value, dictionary.size);
    if (dictionary.size > limit) break;
  }
  if (dictionary.size <= limit) {
    const indexes = dictionary.size <= 256 ? new Uint8Array(n) : new Uint16Array(n);
    for (let k = 0; k < n; k++) indexes[k] = dictionary.get(values[k])!;
    return { d: [...dictionary.keys()], i: indexes };
  }
  const same = sameAsEarlier(values, earlier, limit);
  if (same) return same;
  return joined(values, limit, true) ?? joined(values, limit, false) ?? { v: values };
}

/** A character a one-byte (Latin-1) string cannot hold. */
const WIDE = /[\u0100-\uffff]/;

/** The values as joined text with at most `limit` exceptions; `narrow`: non-Latin-1 too. */
function joined(values: unknown[], limit: number, narrow: boolean): Column | undefined {
  const pieces: string[] = [];
  const at: number[] = [];
  for (let k = 0; k < values.length; k++) {
    const value = values[k];
    if (typeof value === 'string' && !value.includes(SEPARATOR) && !(narrow && WIDE.test(value))) {
      pieces.push(value);
    } else {
      pieces.push('');
      if (at.push(k) > limit) return undefined;
    }
  }
  const text = pieces.join(SEPARATOR);
  if (at.length === 0) return { j: text };
  return { j: text, x: Uint16Array.from(at), xv: at.map((k) => values[k]) };
}

/** The rows as columns; undefined for a row not a plain object, or past 65,535 rows. */
export function encodeRows(rows: readonly unknown[]): ColumnChunk | undefined {
  if (rows.length > MAX_ROWS) return undefined;
  const byKey = new Map<string, number>();
  const groups: { shape: Shape; values: unknown[][] }[] = [];
  const groupOf = new Uint16Array(rows.length);
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k];
    if (!isPlainObject(row)) return undefined;
    const key = shapeKey(row);
    if (key === undefined) return undefined;
    let at = byKey.get(key);
    if (at === undefined) {
      at = groups.length;
      byKey.set(key, at);
      const shape = shapeOf(row);
      groups.push({ shape, values: Array.from({ length: leafCount(shape) }, () => []) });
    }
    groupOf[k] = at;
    pushLeaves(row, groups[at]!.values);
  }
  const chunk: ColumnChunk = {
    n: rows.length,
    groups: groups.map(({ shape, values }) => ({
      shape,
      columns: values.map((column, c) => encodeColumn(column, values.slice(0, c))),
    })),
  };
  if (groups.length > 1) {
    chunk.groupOf = groups.length <= 256 ? Uint8Array.from(groupOf) : groupOf;
  }
  return chunk;
}

/** A column's values as an array; undefined for a dictionary, which `fill` reads in place. */
function valuesOf(column: Column, columns: Column[], decoded: (unknown[] | undefined)[]) {
  if ('d' in column) return undefined;
  if ('j' in column) return withExceptions(column.j.split(SEPARATOR), column);
  if ('v' in column) return column.v;
  const same = columns[column.r]!;
  const base = 'd' in same ? Array.from(same.i, (index) => same.d[index]) : decoded[column.r]!;
  return column.x ? withExceptions(base.slice(), column) : base;
}

/** `values` with the column's exceptions written in (see Column). */
function withExceptions(values: unknown[], { x, xv }: { x?: Uint16Array; xv?: unknown[] }) {
  if (x && xv) for (let k = 0; k < x.length; k++) values[x[k]!] = xv[k];
  return values;
}

/** The shape's keys in order, each null: rows copied from it never reshape as they fill. */
function templateOf(shape: Shape): Record<string, unknown> {
  const template: Record<string, null> = {};
  for (const [name] of shape) template[name] = null;
  // JSON.parse makes the fast object a literal would be (keys added one by one would not be).
  return JSON.parse(JSON.stringify(template)) as Record<string, unknown>;
}

/** Fills `objects` (one per row) with the shape's values, column by column. */
function fill(
  shape: Shape,
  objects: Record<string, unknown>[],
  group: { columns: Column[]; decoded: (unknown[] | undefined)[]; next: number },
): void {
  const m = objects.length;
  for (const [name, nested] of shape) {
    if (nested === 0) {
      const at = group.next++;
      const column = group.columns[at]!;
      const values = group.decoded[at];
      if (values) {
        for (let k = 0; k < m; k++) objects[k]![name] = values[k];
      } else if ('d' in column) {
        const { d, i } = column;
        for (let k = 0; k < m; k++) objects[k]![name] = d[i[k]!];
      }
    } else {
      const template = templateOf(nested);
      const children = new Array<Record<string, unknown>>(m);
      for (let k = 0; k < m; k++) children[k] = objects[k]![name] = { ...template };
      fill(nested, children, group);
    }
  }
}

/** Appends the chunk's rows to `out`, as they were encoded. */
export function decodeRows(chunk: ColumnChunk, out: unknown[]): void {
  const { groupOf } = chunk;
  const counts = new Array<number>(chunk.groups.length).fill(0);
  if (groupOf) for (const group of groupOf) counts[group]!++;
  else counts[0] = chunk.n;
  const rowsOf = chunk.groups.map(({ shape, columns }, group) => {
    const decoded: (unknown[] | undefined)[] = [];
    for (const column of columns) decoded.push(valuesOf(column, columns, decoded));
    const template = templateOf(shape);
    const objects = new Array<Record<string, unknown>>(counts[group]!);
    for (let k = 0; k < objects.length; k++) objects[k] = { ...template };
    fill(shape, objects, { columns, decoded, next: 0 });
    return objects;
  });
  if (!groupOf) {
    for (const row of rowsOf[0] ?? []) out.push(row);
    return;
  }
  const taken = new Array<number>(rowsOf.length).fill(0);
  for (const group of groupOf) out.push(rowsOf[group]![taken[group]!++]);
}
