import { z } from 'zod';

/**
 * The field paths of a form's zod schema, as react-hook-form names them: `price`,
 * `card.title`, and `images` for an array (its items are one field to the server). Wrappers
 * (optional, nullable, default, a refinement) are looked through, so the list follows the schema
 * and is never kept by hand.
 */
export function fieldPathsOf(schema: z.ZodType): string[] {
  const paths: string[] = [];
  const walk = (node: z.ZodType, prefix: string) => {
    const inner = unwrap(node);
    if (inner instanceof z.ZodObject) {
      for (const [key, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
        walk(child, prefix ? `${prefix}.${key}` : key);
      }
      return;
    }
    if (prefix) paths.push(prefix);
  };
  walk(schema, '');
  return paths;
}

function unwrap(node: z.ZodType): z.ZodType {
  let current = node;
  for (;;) {
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable ||
      current instanceof z.ZodDefault
    ) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
}
