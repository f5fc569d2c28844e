import type { ReactNode } from 'react';

/** What tells one slab from another: its grader and grade, cert, year and set. */
export interface SlabFacts {
  grader?: string | undefined;
  grade?: string | undefined;
  cert?: string | undefined;
  year?: number | null | undefined;
  set?: string | undefined;
  /** The listing's cover photo, when the server sent one. */
  imageSrc?: string | undefined;
}

/** The facts line's parts, each a whole figure or phrase ("PSA 10", "cert 4412…", "2017 Prizm"). */
function slabFactParts(facts: SlabFacts): { key: string; text: string }[] {
  const parts: { key: string; text: string }[] = [];
  const grade = [facts.grader, facts.grade].filter(Boolean).join(' ');
  if (grade) parts.push({ key: 'grade', text: grade });
  if (facts.cert) parts.push({ key: 'cert', text: `cert ${facts.cert}` });
  const edition = [facts.year ?? undefined, facts.set].filter(Boolean).join(' ');
  if (edition) parts.push({ key: 'edition', text: edition });
  return parts;
}

/** A slab in a row: thumbnail, title (wraps), then grader, grade, cert, year, set, each whole. */
export function SlabIdentity({ title, facts }: { title: ReactNode; facts: SlabFacts }) {
  return (
    <div className="slab-id">
      {facts.imageSrc && (
        <img
          className="slab-thumb"
          src={facts.imageSrc}
          alt=""
          width={28}
          height={40}
          loading="lazy"
          decoding="async"
        />
      )}
      <div className="slab-id-text">
        <span className="slab-title">{title}</span>
        <SlabFactsLine facts={facts} />
      </div>
    </div>
  );
}

/** The facts line alone (none when nothing is known), each part whole: "PSA 10 · cert 4412…". */
export function SlabFactsLine({ facts }: { facts: SlabFacts }) {
  const parts = slabFactParts(facts);
  return (
    parts.length > 0 && (
      <span className="slab-facts">
        {parts.map((part, index) => (
          <span key={part.key} className="slab-fact" data-fact={part.key}>
            {index > 0 && <span aria-hidden="true"> · </span>}
            {part.text}
          </span>
        ))}
      </span>
    )
  );
}
