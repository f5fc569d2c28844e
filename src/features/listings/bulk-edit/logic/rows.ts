import { z } from 'zod';
import type { Product } from '../../../../client';
import { parseAmount, parsePrice } from './money';

/** The editable state of a listing as the grid shows it. */
export const EDIT_STATUSES = ['active', 'draft', 'inactive'] as const;
export type EditStatus = (typeof EDIT_STATUSES)[number];
export const DURATIONS = ['168', '336', '504', '720'] as const;
export type DurationText = (typeof DURATIONS)[number];

/** A listing as the bulk editor found it: the sale terms it can change, and what it shows. */
export interface BulkRow {
  id: string;
  title: string;
  /** The API's status: active, draft, archived, or a pending-review value. */
  status: string;
  unavailableReason: string | null;
  canReactivate: boolean;
  price: string;
  minimumOffer: string | null;
  acceptsOffers: boolean;
  acceptsTrades: boolean;
  autoRelist: boolean;
  promoted: boolean;
  durationHours: number;
  description: string;
  card: {
    player: string;
    certNumber: string;
    grader: string;
    grade: string;
    year: number | null;
    set: string;
    category: string;
  };
  isLot: boolean;
  updatedAt: string;
}

/** Strips the tags of `body_html` (the API's description is plain text in the product shape). */
function plainText(html: string): string {
  if (!/[<&]/.test(html)) return html;
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

export function toBulkRow(product: Product): BulkRow {
  const variant = product.variants[0];
  return {
    id: product.id,
    title: product.title,
    status: product.status,
    unavailableReason: product.svc_unavailable_reason,
    canReactivate: product.svc_can_reactivate,
    price: variant?.price ?? '0.00',
    minimumOffer: product.svc_minimum_offer ?? variant?.svc_minimum_offer ?? null,
    acceptsOffers: product.svc_accepts_offers,
    acceptsTrades: product.svc_accepts_trades,
    autoRelist: product.svc_auto_relist,
    promoted: product.svc_promoted,
    durationHours: product.svc_duration_hours,
    description: plainText(product.body_html),
    card: {
      player: product.svc_card.player ?? '',
      certNumber: product.svc_card.cert_number,
      grader: product.svc_card.grader,
      grade: product.svc_card.grade,
      year: product.svc_card.year,
      set: product.svc_card.set,
      category: product.svc_card.category,
    },
    isLot: product.svc_is_lot,
    updatedAt: product.updated_at,
  };
}

/** Why a listing cannot be edited in bulk, or null when it can. */
export function exclusionReason(row: BulkRow): string | null {
  if (row.status === 'archived' && row.unavailableReason === 'sold') {
    return 'sold: a sold listing cannot be changed';
  }
  if (!['active', 'draft', 'archived'].includes(row.status)) {
    return `${row.status.replace(/_/g, ' ')}: only active, draft and inactive listings can be edited`;
  }
  return null;
}

export function editStatusOf(row: BulkRow): EditStatus {
  if (row.status === 'active') return 'active';
  if (row.status === 'draft') return 'draft';
  return 'inactive';
}

/** One row of the form: every editable cell as the grid holds it (text, or a switch). */
export interface EditValues {
  id: string;
  title: string;
  price: string;
  /** Empty: no minimum offer. */
  minimumOffer: string;
  acceptsOffers: boolean;
  acceptsTrades: boolean;
  autoRelist: boolean;
  status: EditStatus;
  durationHours: DurationText;
  description: string;
  /** Only the CSV import sets it; one-way (see the diff). */
  promoted?: boolean;
}

export function toEditValues(row: BulkRow): EditValues {
  const duration = String(row.durationHours);
  return {
    id: row.id,
    title: row.title,
    price: row.price,
    minimumOffer: row.minimumOffer ?? '',
    acceptsOffers: row.acceptsOffers,
    acceptsTrades: row.acceptsTrades,
    autoRelist: row.autoRelist,
    status: editStatusOf(row),
    durationHours: (DURATIONS as readonly string[]).includes(duration)
      ? (duration as DurationText)
      : '720',
    description: row.description,
  };
}

/** The editable columns, in the grid's order. */
export const EDIT_FIELDS = [
  'title',
  'price',
  'minimumOffer',
  'acceptsOffers',
  'acceptsTrades',
  'autoRelist',
  'status',
  'durationHours',
  'description',
] as const;
export type EditField = (typeof EDIT_FIELDS)[number];

export const FIELD_LABELS: Record<EditField | 'promoted', string> = {
  title: 'Title',
  price: 'Price',
  minimumOffer: 'Minimum offer',
  acceptsOffers: 'Offers',
  acceptsTrades: 'Trades',
  autoRelist: 'Auto-relist',
  status: 'Status',
  durationHours: 'Duration',
  description: 'Description',
  promoted: 'Promoted',
};

export const BOOLEAN_FIELDS = ['acceptsOffers', 'acceptsTrades', 'autoRelist'] as const;
export type BooleanField = (typeof BOOLEAN_FIELDS)[number];
export const isBooleanField = (field: EditField): field is BooleanField =>
  (BOOLEAN_FIELDS as readonly string[]).includes(field);

/**
 * The zod schema of one row of the form, with the spec's bounds. The grid shows its messages on
 * the cells before anything is sent.
 */
export const EditRowSchema = z
  .object({
    id: z.string().min(1),
    title: z
      .string()
      .refine((t) => t.trim().length >= 1, 'is required')
      .refine((t) => t.length <= 180, 'must be at most 180 characters'),
    price: z.string().superRefine((text, ctx) => {
      const parsed = parsePrice(text);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
    }),
    minimumOffer: z.string().superRefine((text, ctx) => {
      if (text.trim() === '') return;
      const parsed = parseAmount(text);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
    }),
    acceptsOffers: z.boolean(),
    acceptsTrades: z.boolean(),
    autoRelist: z.boolean(),
    status: z.enum(EDIT_STATUSES, { message: 'must be active, draft or inactive' }),
    durationHours: z.enum(DURATIONS, { message: 'must be 168, 336, 504 or 720 hours' }),
    description: z.string().max(1000, 'must be at most 1000 characters'),
    promoted: z.boolean().optional(),
  })
  .superRefine((row, ctx) => {
    if (!row.acceptsOffers || row.minimumOffer.trim() === '') return;
    const offer = parseAmount(row.minimumOffer);
    const price = parsePrice(row.price);
    if (offer.ok && price.ok && offer.value > price.value) {
      ctx.addIssue({
        code: 'custom',
        path: ['minimumOffer'],
        message: 'must be at most the price',
      });
    }
  });

/** Every cell's first zod message, keyed `field`, for one row (empty when valid). */
export function rowErrors(values: EditValues): Partial<Record<EditField, string>> {
  const result = EditRowSchema.safeParse(values);
  if (result.success) return {};
  const errors: Partial<Record<EditField, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && (EDIT_FIELDS as readonly string[]).includes(field)) {
      errors[field as EditField] ??= issue.message;
    }
  }
  return errors;
}
