import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApiClient } from '../api-context';
import type { SlabdeskClient } from '../../client';
import { catalogueQuery, type Catalogue } from './catalogue-query';

/** What tells one slab from another, by listing id: a view of the kept listings. */
export interface SlabFacts {
  title: string | undefined;
  player: string | undefined;
  grader: string | undefined;
  grade: string | undefined;
  cert: string | undefined;
  year: number | undefined;
  set: string | undefined;
}

export type SlabFactsByListing = ReadonlyMap<string, SlabFacts>;

export function slabFactsOf(catalogue: Catalogue): SlabFactsByListing {
  return new Map(
    catalogue.rows.map((row) => [
      row.id,
      {
        title: row.card?.title ?? row.title,
        player: row.card?.player ?? undefined,
        grader: row.card?.grader,
        grade: row.card?.grade,
        cert: row.card?.cert_number,
        year: row.card?.year ?? undefined,
        set: row.card?.set,
      },
    ]),
  );
}

/** The kept listings seen as slab facts (`select`: one cache, a derived view). */
export const slabFactsQuery = (client: SlabdeskClient, queryClient: QueryClient) => ({
  ...catalogueQuery(client, queryClient),
  select: slabFactsOf,
});

/** How long a list waits for the kept catalogue's names before drawing without them. */
const NAMES_GRACE_MS = 8_000;

const isWhole = (catalogue: Catalogue) => catalogue.complete;

/** Slab facts for rows, and whether to draw yet (catalogue whole, failed, or grace over). */
export function useSlabFactsForRows(): { slabs: SlabFactsByListing | undefined; ready: boolean } {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const query = useQuery(slabFactsQuery(client, queryClient));
  // The walk shows its pages as they come: the names are all in only once it is whole.
  const whole = useQuery({ ...catalogueQuery(client, queryClient), select: isWhole }).data;
  const waiting = whole !== true && query.fetchStatus === 'fetching';
  const [graceOver, setGraceOver] = useState(false);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setGraceOver(true), NAMES_GRACE_MS);
    return () => clearTimeout(timer);
  }, [waiting]);
  return { slabs: query.data, ready: !waiting || graceOver };
}

/** "1986 Fleer Michael Jordan PSA 6": the name a seller knows the slab by. */
export function slabName(facts: SlabFacts | undefined, fallback?: string): string | undefined {
  const title = facts?.title ?? fallback;
  const grading = [facts?.grader, facts?.grade].filter(Boolean).join(' ');
  if (!title) return grading || undefined;
  return grading && !title.includes(grading) ? `${title} ${grading}` : title;
}

/** "Cert 12345678 · 1986 Fleer": the line that tells two copies of one card apart. */
export function slabDetail(facts: SlabFacts | undefined): string | undefined {
  if (!facts) return undefined;
  const yearSet = [facts.year, facts.set].filter(Boolean).join(' ');
  const parts = [facts.cert && `cert ${facts.cert}`, yearSet].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

/** "1986 Fleer Michael Jordan PSA 6 · cert 12345678": one option in a card picker. */
export function slabLabel(facts: SlabFacts | undefined, fallback?: string): string | undefined {
  const name = slabName(facts, fallback);
  return name && facts?.cert ? `${name} · cert ${facts.cert}` : name;
}

export type SlabLookup = { found: string } | { found: undefined; matches: number };

/** The listing meant by what was typed: a label, a cert, a listing id, or one slab's words. */
export function findSlab(text: string, slabs: SlabFactsByListing | undefined): SlabLookup {
  const wanted = text.trim();
  if (!wanted) return { found: undefined, matches: 0 };
  if (slabs?.has(wanted)) return { found: wanted };
  const entries = [...(slabs ?? new Map<string, SlabFacts>()).entries()];
  const one = (ids: string[]): SlabLookup | undefined =>
    ids.length === 1 ? { found: ids[0]! } : undefined;
  const byLabel = entries.filter(([, facts]) => slabLabel(facts) === wanted).map(([id]) => id);
  const digits = wanted.replace(/\D/g, '');
  const byCert = /^[\s#\d-]+$/.test(wanted)
    ? entries.filter(([, facts]) => facts.cert?.replace(/\D/g, '') === digits).map(([id]) => id)
    : [];
  const words = wanted.toLowerCase().split(/\s+/);
  const byWords = entries
    .filter(([, facts]) => {
      const label = (slabLabel(facts) ?? '').toLowerCase();
      return words.every((word) => label.includes(word));
    })
    .map(([id]) => id);
  return (
    one(byLabel) ?? one(byCert) ?? one(byWords) ?? { found: undefined, matches: byWords.length }
  );
}
