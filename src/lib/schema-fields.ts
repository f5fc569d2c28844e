import * as z from 'zod/mini';

/** A form schema's field paths as react-hook-form names them, so none is kept by hand. */
export function fieldPathsOf(schema: z.ZodMiniType): string[] {
  const paths: string[] = [];
  const walk = (node: z.ZodMiniType, prefix: string) => {
    const inner = unwrap(node);
    if (inner instanceof z.ZodMiniObject) {
      for (const [key, child] of Object.entries(inner.shape as Record<string, z.ZodMiniType>)) {
        walk(child, prefix ? `${prefix}.${key}` : key);
      }
      return;
    }
    if (prefix) paths.push(prefix);
  };
  walk(schema, '');
  return paths;
}

/** What a wrapper wraps, read from zod's definitions (`innerType`, or a pipe's `in`). */
interface WrapperDef {
  type: string;
  innerType?: z.ZodMiniType;
  in?: z.ZodMiniType;
}

function unwrap(node: z.ZodMiniType): z.ZodMiniType {
  let current = node;
  for (;;) {
    const def = current._zod.def as WrapperDef;
    const next =
      def.type === 'pipe'
        ? def.in
        : ['optional', 'nullable', 'default', 'catch'].includes(def.type)
          ? def.innerType
          : undefined;
    if (next === undefined) return current;
    current = next;
  }
}
