import type * as z from 'zod/mini';

/** A field's schema, made when first asked for. */
export type Thunks = Record<string, () => z.ZodMiniType>;

/** A shape of getters: zod builds them at the object's first read, not as the module runs. */
export function fields<T extends Thunks>(thunks: T): { [K in keyof T]: ReturnType<T[K]> } {
  const shape = {};
  for (const [key, get] of Object.entries(thunks)) {
    Object.defineProperty(shape, key, { get, enumerable: true, configurable: true });
  }
  return shape as { [K in keyof T]: ReturnType<T[K]> };
}
