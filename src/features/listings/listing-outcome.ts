import { formatDateTime } from '../../lib/format';

/** What happened to a new listing, in the seller's words. */
export function describeOutcome(
  status: string,
  reason: string | null | undefined,
  scheduledAt: string | null | undefined,
  mode: 'live' | 'test' | undefined = 'live',
): { kind: 'live' | 'scheduled' | 'review' | 'other'; text: string } {
  if (status === 'active') {
    return mode === 'test'
      ? {
          kind: 'live',
          text: 'Active in test mode: only test keys see it. Buyers never see test listings.',
        }
      : { kind: 'live', text: 'Live now: buyers can see and buy it.' };
  }
  if (reason === 'scheduled' || scheduledAt) {
    return {
      kind: 'scheduled',
      text: `Scheduled: it goes live at ${scheduledAt ? formatDateTime(scheduledAt) : 'the time you chose'}.`,
    };
  }
  if (reason === 'pending_review' || status !== 'archived') {
    return {
      kind: 'review',
      text: 'Pending review: the marketplace checks the card details before it goes live.',
    };
  }
  if (status === 'archived') return { kind: 'other', text: 'Not on sale: it is deactivated.' };
  return { kind: 'other', text: `Created with status ${status}.` };
}
