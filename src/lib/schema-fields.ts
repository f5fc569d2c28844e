import * as z from 'zod/mini';

/**
 * The field paths of a form's zod schema, as react-hook-form names them: `price`,
 * `card.title`, and `images` for an array (its items are one field to the server). Wrappers
 * (optional, nullable, default, catch, a pipe) are looked through, so the list follows the schema
 * and is never kept by hand.
 */
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
