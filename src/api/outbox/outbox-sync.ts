import type { QueryClient } from '@tanstack/react-query';
import { ApiError, type SlabdeskClient } from '../../client';
import { applyListingWrite } from '../listings/write-answer';
import { listingKeys } from '../listings/listing-keys';
import { postSale, postShow, SOLD_BEFORE } from '../shows/show-api';
import { showKeys } from '../shows/show-keys';
import { centsOf, formatDollars } from '../../shared/money';
import { mayBeSentBy, outbox, type OutboxItem, type PriceWrite, type SaleWrite } from './outbox';

/** Sends the outbox in order, one at a time; a drop waits, a sold card or new price is held. */

const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;
const dropped = (error: unknown) => error instanceof ApiError && error.status === 0;
/** The server's answer when the session ended: the write waits, never sent under another one. */
const SIGN_IN_REQUIRED = 'sign_in_required';
const ended = (error: unknown) => error instanceof ApiError && error.code === SIGN_IN_REQUIRED;
const wordsOf = (error: unknown) =>
  error instanceof ApiError ? error.message : error instanceof Error ? error.message : 'Failed';
const detailsOf = (error: unknown) =>
  error instanceof ApiError ? `${error.status} ${error.code}` : undefined;

/** A drop or the end of the session stops sending (anything else is the write's answer). */
const stops = (error: unknown) => dropped(error) || ended(error);

/** The marketplace's words without its ids (the seller knows the card by its title). */
const withoutIds = (text: string) => text.replace(/\b(lst|evt|req|loc|ord)_[A-Za-z0-9]+/g, 'it');

async function sendSale(
  client: SlabdeskClient,
  queryClient: QueryClient,
  item: SaleWrite,
): Promise<Partial<SaleWrite>> {
  const box = outbox();
  let offMarket = item.offMarket;
  let note = item.note ?? null;
  if (offMarket === undefined) {
    try {
      const answer = await client.listings.delete(item.listingId, {
        idempotencyKey: item.deactivateKey,
      });
      applyListingWrite(queryClient, {
        method: 'DELETE',
        listingId: item.listingId,
        listing: answer.data,
      });
      offMarket = answer.data.unavailable_reason === 'sold' ? 'sold_online' : 'deactivated';
    } catch (error) {
      if (stops(error)) throw error;
      // Refused: a sold listing refuses any write, so the listing says whether it sold online.
      let reason: string | null | undefined;
      try {
        reason = (await client.listings.get(item.listingId)).data.unavailable_reason;
      } catch (readError) {
        if (stops(readError)) throw readError;
      }
      if (reason === 'sold') {
        offMarket = 'sold_online';
      } else {
        offMarket = 'not_taken_off';
        note = `Still on sale online: ${withoutIds(wordsOf(error))}`;
      }
    }
    await box.update(item.seq, { offMarket, note });
  }
  const soldOnline = offMarket === 'sold_online';
  try {
    await postSale(client, item.showKey, { ...item.sale, soldOnline, offMarket, note });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === SOLD_BEFORE)) throw error;
    // Sold before (at this show or another, maybe from another phone): held for the seller.
    void queryClient.invalidateQueries({ queryKey: showKeys.all() });
    return {
      state: 'conflict',
      soldBefore: error.message,
      outcome: `Not recorded: ${error.message} Settle with the buyer at the table.`,
      details: `${error.status} ${error.code}`,
    };
  }
  void queryClient.invalidateQueries({ queryKey: showKeys.all() });
  if (soldOnline) {
    return {
      state: 'conflict',
      outcome:
        'Sold online before it came off the marketplace: this card is sold twice. Settle with the buyer at the table.',
    };
  }
  if (offMarket === 'not_taken_off') {
    return { state: 'conflict', outcome: `Recorded in the ledger. ${note ?? ''}`.trim() };
  }
  return { state: 'done', outcome: 'Taken off the marketplace and recorded in the ledger.' };
}

async function sendPrice(
  client: SlabdeskClient,
  queryClient: QueryClient,
  item: PriceWrite,
  force: boolean,
): Promise<Partial<PriceWrite>> {
  if (!force) {
    const now = (await client.listings.get(item.listingId)).data;
    if (now.unavailable_reason === 'sold') {
      return { state: 'conflict', outcome: 'Sold online meanwhile: the new price was not sent.' };
    }
    // Changed since by someone else: another price, and (where the API shows it) a newer write.
    const changed =
      now.price !== undefined &&
      now.price !== item.fromPrice &&
      (item.listingUpdatedAt === null ||
        now.updated_at === undefined ||
        now.updated_at !== item.listingUpdatedAt);
    if (changed) {
      return {
        state: 'conflict',
        outcome: `The price was changed to ${formatDollars(centsOf(now.price) ?? 0)} by someone else since: yours (${formatDollars(centsOf(item.price) ?? 0)}) was not sent.`,
      };
    }
  }
  const answer = await client.listings.update(
    item.listingId,
    { price: item.price },
    { idempotencyKey: item.idempotencyKey },
  );
  applyListingWrite(queryClient, {
    method: 'PUT',
    listingId: item.listingId,
    body: { price: item.price },
    listing: answer.data,
  });
  return {
    state: 'done',
    outcome: `Price set to ${formatDollars(centsOf(item.price) ?? 0)}.`,
  };
}

let running: Promise<void> | undefined;
let again = false;

/** Sends what waits; a call while sending runs once more afterwards. */
export function syncOutbox(client: SlabdeskClient, queryClient: QueryClient): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      await sendWaiting(client, queryClient);
    } while (again);
  })().finally(() => {
    running = undefined;
  });
  return running;
}

/** Sends a conflict's write as the seller made it, over what changed since. */
export async function sendAnyway(
  client: SlabdeskClient,
  queryClient: QueryClient,
  item: OutboxItem,
): Promise<void> {
  if (item.kind !== 'set-price' || !mayBeSentBy(item, outbox().whoIsHere())) return;
  await sendOne(client, queryClient, item, true);
}

async function sendOne(
  client: SlabdeskClient,
  queryClient: QueryClient,
  item: OutboxItem,
  force = false,
): Promise<boolean> {
  const box = outbox();
  await box.update(item.seq, { state: 'sending' });
  try {
    let patch: Partial<OutboxItem>;
    if (item.kind === 'create-show') {
      await postShow(client, item.show);
      void queryClient.invalidateQueries({ queryKey: showKeys.all() });
      patch = { state: 'done', outcome: 'Show started.' };
    } else if (item.kind === 'sell-at-show') {
      patch = await sendSale(client, queryClient, item);
    } else {
      patch = await sendPrice(client, queryClient, item, force);
    }
    await box.update(item.seq, patch);
    return true;
  } catch (error) {
    if (dropped(error)) {
      await box.update(item.seq, { state: 'waiting', outcome: 'Waiting for a connection.' });
      return false;
    }
    if (ended(error)) {
      await box.update(item.seq, { state: 'waiting', outcome: 'Waiting for a sign-in.' });
      box.onSessionEnded();
      return false;
    }
    const details = detailsOf(error);
    await box.update(item.seq, {
      state: 'failed',
      outcome: `Not sent: ${wordsOf(error)}`,
      ...(details ? { details } : {}),
    });
    return true;
  }
}

/** A write kept for the account that made it, in the seller's words. */
function heldFor(item: OutboxItem): Partial<OutboxItem> {
  const name = item.by?.name;
  return {
    state: 'held',
    outcome: name
      ? `Made by ${name}: sign in as ${name} to send it, or drop it.`
      : 'Made with no one signed in: it is sent only with sign-in off. Drop it, or make it again.',
  };
}

/** Drops another account's write unsent; the row stays as the note until cleared. */
export async function dropHeld(item: OutboxItem): Promise<void> {
  if (item.state !== 'held') return;
  const name = item.by?.name;
  await outbox().update(item.seq, {
    state: 'dropped',
    outcome: `Dropped, not sent${name ? ` (made by ${name})` : ''}.`,
  });
}

async function sendWaiting(client: SlabdeskClient, queryClient: QueryClient): Promise<void> {
  const box = outbox();
  await box.load();
  let sent = 0;
  const here = box.whoIsHere();
  for (const item of box.snapshot()) {
    if (item.state !== 'waiting' && item.state !== 'held') continue;
    // Another account's write: kept for them, never sent under this session.
    if (!mayBeSentBy(item, here)) {
      if (item.state !== 'held') await box.update(item.seq, heldFor(item));
      continue;
    }
    if (offline()) return;
    // A drop: the rest wait too, in order, for the connection to come back.
    if (!(await sendOne(client, queryClient, item))) return;
    sent++;
  }
  // Only what was sent can have changed the catalogue: an empty outbox on page open reads nothing.
  if (sent > 0)
    void queryClient.invalidateQueries({ queryKey: listingKeys.catalogue(), exact: true });
}
