import type { QueryClient } from '@tanstack/react-query';
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

function slabFactsOf(catalogue: Catalogue): SlabFactsByListing {
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
