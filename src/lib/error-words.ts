import { ownEntry } from '../shared/own-entry';
/** What a failure means to a seller and what to do, by error code; details go under "Details". */
export interface ErrorWords {
  /** What happened, in a sentence. */
  what: string;
  /** What the seller can do next. */
  next: string;
}

const WORDS: Record<string, ErrorWords> = {
  invalid_api_key: {
    what: 'The marketplace did not accept this dashboard’s key: it is missing, revoked or expired.',
    next: 'Ask whoever set the dashboard up to put a current key in its settings (SVC_API_KEY).',
  },
  insufficient_scope: {
    what: 'This dashboard’s key is not allowed to do this.',
    next: 'Create a key with the permission named below and put it in the dashboard’s settings.',
  },
  test_mode_forbidden: {
    what: 'A test key cannot change anything on the real marketplace.',
    next: 'Use a live key to make changes.',
  },
  seller_not_approved: {
    what: 'Your seller account has not finished the marketplace’s approval.',
    next: 'Finish the approval on the marketplace, then try again.',
  },
  seller_frozen: {
    what: 'Your seller account is frozen for now.',
    next: 'Contact the marketplace’s seller support.',
  },
  seller_banned: {
    what: 'Your seller account may not use the marketplace’s tools.',
    next: 'Contact the marketplace’s seller support.',
  },
  seller_not_found: {
    what: 'The seller account behind this key no longer exists.',
    next: 'Put a key of your current account in the dashboard’s settings.',
  },
  seller_not_eligible: {
    what: 'Your seller account cannot use the marketplace’s tools right now.',
    next: 'Contact the marketplace’s seller support.',
  },
  seller_paused: {
    what: 'The marketplace has paused your access for now.',
    next: 'It comes back by itself; try again later.',
  },
  listing_write_forbidden: {
    what: 'The marketplace does not allow this change to your listings.',
    next: 'The reason is below; contact seller support if it looks wrong.',
  },
  not_found: {
    what: 'There is nothing here: it does not exist, or it is not yours.',
    next: 'Check the address, or find it from the list.',
  },
  validation_error: {
    what: 'Some values were not accepted.',
    next: 'Correct the fields named and save again.',
  },
  listing_write_conflict: {
    what: 'This card is already listed, reserved by an order, or sold.',
    next: 'Open the card’s current listing instead.',
  },
  card_not_listable: {
    what: 'This card cannot be listed right now (sold, archived, shipped, in a trade or under review).',
    next: 'Pick another card.',
  },
  cert_not_found: {
    what: 'No grader recognises this cert number.',
    next: 'Check the number on the slab’s label.',
  },
  cert_lookup_unavailable: {
    what: 'The graders’ cert lookup is busy or down.',
    next: 'Try again in a minute: nothing was created.',
  },
  rate_limited: {
    what: 'The marketplace asked the dashboard to slow down.',
    next: 'Try again in a few seconds.',
  },
  upstream_paused: {
    what: 'The marketplace asked the dashboard to wait.',
    next: 'It carries on by itself when the wait is over.',
  },
  partner_api_writes_disabled: {
    what: 'The marketplace has switched off changes for now (an incident on its side).',
    next: 'Your listings can still be read; try the change again later.',
  },
  partner_api_disabled: {
    what: 'The marketplace is unavailable for now (an incident on its side).',
    next: 'Try again in a few minutes.',
  },
  internal_error: {
    what: 'Something failed on the marketplace’s side.',
    next: 'Try again; if it keeps failing, contact seller support with the details below.',
  },
  network_error: {
    what: 'The dashboard could not reach the marketplace.',
    next: 'Check the connection and try again.',
  },
  upstream_unreachable: {
    what: 'The dashboard could not reach the marketplace.',
    next: 'Check the connection and try again.',
  },
  timeout: {
    what: 'The marketplace took too long to answer.',
    next: 'Try again.',
  },
  deadline_exceeded: {
    what: 'The marketplace took too long to answer.',
    next: 'Try again.',
  },
  cursor_loop: {
    what: 'The marketplace sent the same page of results twice, so the list stopped there.',
    next: 'Try again; what was read so far is shown.',
  },
  page_budget_exceeded: {
    what: 'The list is longer than the dashboard reads in one go.',
    next: 'Narrow it with a filter, or try again.',
  },
  unexpected_response: {
    what: 'The marketplace’s answer could not be read.',
    next: 'Try again; if it keeps happening, contact support with the details below.',
  },
  idempotency_request_in_flight: {
    what: 'The same change is still being made.',
    next: 'Wait a moment; it finishes by itself.',
  },
};

const FALLBACK: ErrorWords = {
  what: 'Something went wrong.',
  next: 'Try again; if it keeps happening, contact support with the details below.',
};

/** Any invalid-cursor code reads the same to a seller: the list moved while it was read. */
const CURSOR_WORDS: ErrorWords = {
  what: 'The list changed while it was being read.',
  next: 'Try again to read it from the start.',
};

export function errorWords(code: string | null | undefined): ErrorWords {
  if (!code) return FALLBACK;
  if (code.startsWith('page_info_') || code === 'invalid_page_info') return CURSOR_WORDS;
  return ownEntry(WORDS, code) ?? FALLBACK;
}

/** The marketplace's message with its codes spelled out (a seller reads words, not identifiers). */
export function marketplaceSays(message: string): string {
  return message.replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, (code) => code.replace(/_/g, ' '));
}
