import fc from 'fast-check';

/**
 * fast-check arbitraries generated from the JSON Schemas of an OpenAPI document: `$ref`,
 * `anyOf`, `enum`, `const`, strings (length bounds; patterns with `stringMatching`), numbers,
 * booleans, null, arrays and objects (optional members sometimes left out). Strings draw on the
 * whole of Unicode, control characters included, so hostile text is tried within the bounds.
 */
export type Schema = Record<string, unknown>;

export function arbitraryOf(schema: Schema, root: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string')
    return arbitraryOf(resolveRef(schema.$ref, root), root, depth);
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    const options = (schema.anyOf ?? schema.oneOf) as Schema[];
    return fc.oneof(...options.map((option) => arbitraryOf(option, root, depth + 1)));
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({
        min: typeof schema.minimum === 'number' ? schema.minimum : -1_000_000,
        max: typeof schema.maximum === 'number' ? schema.maximum : 1_000_000_000,
      });
    case 'number':
      return fc.double({
        min: typeof schema.minimum === 'number' ? schema.minimum : -1e9,
        max: typeof schema.maximum === 'number' ? schema.maximum : 1e12,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (schema.items as Schema | undefined) ?? { type: 'string' };
      return fc.array(arbitraryOf(items, root, depth + 1), {
        minLength: typeof schema.minItems === 'number' ? schema.minItems : 0,
        maxLength: typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, 6) : 3,
      });
    }
    case 'object':
    default: {
      const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
      if (depth > 6) return fc.constant({});
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) {
        model[name] = arbitraryOf(property, root, depth + 1);
      }
      return fc.record(model, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
  }
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern));
  }
  if (schema.format === 'uri') {
    return fc.oneof(fc.webUrl({ withQueryParameters: true }), fc.string({ maxLength: 30 }));
  }
  if (schema.format === 'date-time') {
    return fc.oneof(
      fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
      fc.string({ maxLength: 30 }),
    );
  }
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, 300) : 40;
  return fc.string({ unit: 'grapheme', minLength, maxLength });
}

export function resolveRef(ref: string, root: Schema): Schema {
  let node: unknown = root;
  for (const part of ref.replace(/^#\//, '').split('/')) {
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (node === undefined) throw new Error(`unresolved ${ref}`);
  return node as Schema;
}
