import { formatDateTime } from '../../../lib/format';

const REVIEW_TEXT =
  'Pending review: it goes to the marketplace’s review, which checks the card details before it goes live. It goes live once approved; no go-live time is set.';

/** A new listing's outcome in words; a review-bound cert (SGC, CGC) is promised no go-live time. */
export function describeOutcome(
  status: string,
  reason: string | null | undefined,
  scheduledAt: string | null | undefined,
  mode: 'live' | 'test' | undefined = 'live',
  reviewBound = false,
): { kind: 'live' | 'scheduled' | 'review' | 'other'; text: string } {
  if (status === 'active') {
    return mode === 'test'
      ? {
          kind: 'live',
          text: 'Active in test mode: only test keys see it. Buyers never see test listings.',
        }
      : { kind: 'live', text: 'Live now: buyers can see and buy it.' };
  }
  if (reason === 'pending_review' || (reviewBound && status !== 'archived')) {
    return { kind: 'review', text: REVIEW_TEXT };
  }
  if (reason === 'scheduled' || scheduledAt) {
    return {
      kind: 'scheduled',
      text: `Scheduled: it goes live at ${scheduledAt ? formatDateTime(scheduledAt) : 'the time you chose'}.`,
    };
  }
  if (reason === 'pending_review' || status !== 'archived') {
    return { kind: 'review', text: REVIEW_TEXT };
  }
  if (status === 'archived') return { kind: 'other', text: 'Not on sale: it is deactivated.' };
  return { kind: 'other', text: `Created with status ${status}.` };
}
