import { z } from 'zod';
import type { MetaStore } from '../store/meta-store';

/** The control API's fault switches, kept in the store so a restart keeps them. */
export const faultSwitches = z.object({
  cert_lookup: z.enum(['ok', 'unavailable']),
  writes_disabled: z.boolean(),
  api_disabled: z.boolean(),
  degraded_ids: z.array(z.string()),
  blocklisted_certs: z.array(z.string()),
  /** Milliseconds that each slow step of a listing write (cert lookup, image rehost) takes. */
  write_latency_ms: z.number().int().min(0).max(60_000),
  /** The next committed listing write drops the connection instead of answering (then resets). */
  crash_after_write: z.boolean(),
});
type Faults = z.infer<typeof faultSwitches>;

const NO_FAULTS: Faults = {
  cert_lookup: 'ok',
  writes_disabled: false,
  api_disabled: false,
  degraded_ids: [],
  blocklisted_certs: [],
  write_latency_ms: 0,
  crash_after_write: false,
};

export function createFaults(meta: MetaStore) {
  let current: Faults;
  let degraded: Set<string>;
  const use = (faults: Faults) => {
    current = faults;
    degraded = new Set(faults.degraded_ids);
    return faults;
  };
  const load = () =>
    use({ ...NO_FAULTS, ...(JSON.parse(meta.get('faults') || '{}') as Partial<Faults>) });
  load();
  return {
    get: (): Faults => current,
    /** Replaces the switches named in `patch`; the others keep their values. */
    set(patch: Partial<Faults>): Faults {
      meta.set('faults', JSON.stringify(use({ ...current, ...patch })));
      return current;
    },
    isDegraded: (id: string) => degraded.has(id),
    reload: () => void load(),
  };
}

export type FaultSwitches = ReturnType<typeof createFaults>;
