import type * as z from 'zod/mini';

/**
 * A quick yes: does a schema accept a value exactly as it is, so the record can be kept without
 * zod's copy? Derived from the schema; any doubt says no, and the caller parses with zod.
 */
export type Accepts = (value: unknown) => boolean;

/** What this module reads of a zod schema's internals (zod v4 core, `_zod`). */
interface Internals {
  def: {
    type: string;
    coerce?: boolean;
    checks?: readonly CheckInternals[];
    innerType?: Schema;
    element?: Schema;
    shape?: Record<string, Schema>;
    catchall?: unknown;
  };
  traits: Set<string>;
  optin?: string;
  optout?: string;
  values?: Set<unknown>;
  check?: (payload: Payload) => unknown;
}
interface CheckInternals {
  _zod: {
    def: { when?: (payload: Payload) => boolean };
    check: (payload: Payload) => unknown;
  };
}
interface Payload {
  value: unknown;
  issues: unknown[];
}
type Schema = { _zod: Internals };

const compiled = new WeakMap<object, Accepts | null>();

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The checks zod runs on a value of this schema (itself first, when it is a check too). */
function checksOf(schema: Schema): CheckInternals[] {
  const own = schema._zod.def.checks ?? [];
  return schema._zod.traits.has('$ZodCheck') ? [schema as CheckInternals, ...own] : [...own];
}

/** True when every check passes, run as zod runs them after the type's own test. */
function passes(checks: readonly CheckInternals[], value: unknown): boolean {
  for (const check of checks) {
    const payload: Payload = { value, issues: [] };
    const when = check._zod.def.when;
    if (when && !when(payload)) continue;
    const result = check._zod.check(payload);
    if (result instanceof Promise || payload.issues.length > 0) return false;
  }
  return true;
}

function objectAccepts(shape: Record<string, Schema>): Accepts | null {
  const fields: { key: string; accepts: Accepts; mayBeAbsent: boolean }[] = [];
  for (const key of Object.keys(shape)) {
    const field = shape[key]!;
    const accepts = compile(field);
    if (!accepts || key === '__proto__') return null;
    const { optin, optout } = field._zod;
    if (optin !== undefined && optin !== 'optional') return null; // a default: zod fills it in
    fields.push({ key, accepts, mayBeAbsent: optin === 'optional' && optout === 'optional' });
  }
  const known = new Set(fields.map((field) => field.key));
  return (value) => {
    if (!isPlainObject(value)) return false;
    for (const field of fields) {
      if (!(field.key in value)) {
        if (field.mayBeAbsent) continue;
        return false;
      }
      if (!field.accepts(value[field.key])) return false;
    }
    // A key the schema does not name would be stripped: zod's copy would differ.
    for (const key in value) if (!known.has(key)) return false;
    return true;
  };
}

function typeAccepts(schema: Schema): Accepts | null {
  const { def } = schema._zod;
  if (def.coerce) return null;
  switch (def.type) {
    case 'string':
      return (value) => typeof value === 'string';
    case 'number':
      return (value) => typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'enum':
    case 'literal': {
      const values = schema._zod.values;
      return values ? (value) => values.has(value) : null;
    }
    case 'optional': {
      const inner = def.innerType && compile(def.innerType);
      return inner ? (value) => value === undefined || inner(value) : null;
    }
    case 'nullable': {
      const inner = def.innerType && compile(def.innerType);
      return inner ? (value) => value === null || inner(value) : null;
    }
    case 'array': {
      const element = def.element && compile(def.element);
      return element ? (value) => Array.isArray(value) && value.every(element) : null;
    }
    case 'object':
      return def.catchall === undefined && def.shape ? objectAccepts(def.shape) : null;
    default:
      return null;
  }
}

function compile(schema: Schema): Accepts | null {
  if (compiled.has(schema)) return compiled.get(schema)!;
  const base = typeAccepts(schema);
  const checks = checksOf(schema);
  const accepts =
    base && checks.length > 0 ? (value: unknown) => base(value) && passes(checks, value) : base;
  compiled.set(schema, accepts);
  return accepts;
}

/** True when `schema` surely accepts `value` unchanged; false means "ask zod". */
export function acceptsAsIs(schema: z.ZodMiniType, value: unknown): boolean {
  const accepts = compile(schema as unknown as Schema);
  return accepts !== null && accepts(value);
}
