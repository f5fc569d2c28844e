import { startRewritingUpstream } from './rewriting-upstream';

/** An upstream in front of a real sandbox whose inventory levels speak codes we never saw. */
export interface RenamedReasons {
  url: string;
  /** The renamed code of a sandbox code (`shipped` → `x_shipped`). */
  renamed(code: string): string;
  close(): Promise<void>;
}

const renamed = (code: string) => `x_${code}`;

/**
 * Forwards every call to `target` (a sandbox's root) as it is, except the inventory levels'
 * answers, whose every `svc_unavailable_reason` (and `unavailable_reason`, should one appear) is
 * renamed to a made-up code: the spec does not show the full set, so a server may use any.
 */
export async function startRenamedReasons(target: string): Promise<RenamedReasons> {
  const upstream = await startRewritingUpstream(
    target,
    (path) => /\/inventory_levels(\.json)?(\?|$)/.test(path),
    (_path, body) => {
      const levels = (body.inventory_levels ?? []) as Record<string, unknown>[];
      for (const level of levels) {
        for (const key of ['svc_unavailable_reason', 'unavailable_reason']) {
          const code = level[key];
          if (typeof code === 'string') level[key] = renamed(code);
        }
      }
      return true;
    },
  );
  return { ...upstream, renamed };
}
