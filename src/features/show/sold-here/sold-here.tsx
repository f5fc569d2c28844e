import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { ListingRead } from '../../../client';
import type { Show } from '../../../api/shows/show-api';
import { useApiClient } from '../../../api/api-context';
import { useCardFacts } from '../../../api/inventory/inventory-queries';
import type { SaleWrite } from '../../../api/outbox/outbox';
import { centsOf, formatCents, formatDollars } from '../../../shared/money';
import {
  showsQuery,
  today,
  useSellAtShow,
  useShowSale,
  useStartShow,
  type SoldAtShow,
} from '../../../api/shows/show-queries';
import { FormField } from '../../../components/form-field';
import { Figure } from '../../../components/figure';
import { Fact } from '../../../components/fact';
import { useWriteButton } from '../../../components/write-actions';
import { formatDay, formatMoney, formatShortDate } from '../../../lib/format';
import { paths } from '../../../shared/paths';
import { paidWords } from '../../../shared/show-tenders';

import {
  discountCents,
  saleSchema,
  tenderBodies,
  twoDecimals,
  saleCents,
  type SaleValues,
} from './sale-schema';
import { TenderFields } from './tender-fields';
import { UndoSale } from './undo-sale';
import './sold-here.css';
import { Options } from '../../../components/options';

/** The states whose own outcome is said, and the banner each is said in. */
const OUTCOME_BANNER: Partial<Record<SaleWrite['state'], string>> = {
  done: 'banner-ok',
  failed: 'banner-error',
  held: 'banner-warn',
  dropped: 'banner-error',
};

/** Where a sale of this listing stands in the outbox, in the seller's words. */
function SaleState({ write }: { write: SaleWrite }) {
  if (write.state === 'conflict') {
    return (
      <div className="banner banner-error sold-here-conflict" role="alert">
        <p>
          <strong>Conflict: {write.outcome}</strong>
        </p>
      </div>
    );
  }
  const banner = OUTCOME_BANNER[write.state];
  return (
    <p className={`banner ${banner ?? 'banner-ok'}`} role="status">
      {banner
        ? write.outcome
        : write.state === 'sending'
          ? 'Sending…'
          : 'Saved on this phone: it will be sent when the connection is back.'}
    </p>
  );
}

/** A slab's sale said first, with its receipt and, once in the ledger, the way to undo it. */
function ShowSaleNote({ sale, title }: { sale: SoldAtShow; title: string }) {
  const paid = paidWords(sale.priceCents, sale.tenders);
  return (
    <div className="banner banner-warn sold-here-note">
      <p role="status">
        <strong>
          Sold {sale.showName ? `at ${sale.showName}` : 'at a show'} on{' '}
          <Figure kind="date">{formatShortDate(sale.soldAt)}</Figure> for {paid}.
        </strong>{' '}
        A slab is sold once{sale.recorded ? ' unless you undo the sale' : ''}.
      </p>
      <div className="sold-here-note-actions">
        <Link className="button" to={paths.showReceipt.to(sale.showKey, sale.key)}>
          Show receipt
        </Link>
        {sale.recorded ? (
          <UndoSale sale={{ ...sale, title }} />
        ) : (
          <p className="muted">It can be undone once the ledger has it.</p>
        )}
      </div>
    </div>
  );
}

/** Starts a show from the sale form, when there is none yet for today. */
function StartShow({ onStarted }: { onStarted(key: string): void }) {
  const start = useStartShow();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  return (
    <div className="sold-here-start">
      <FormField
        label="Show name"
        error={error}
        input={{ value: name, maxLength: 120, onChange: (event) => setName(event.target.value) }}
      />
      <button
        type="button"
        onClick={() => {
          if (name.trim() === '') {
            setError('Name the show');
            return;
          }
          setError(undefined);
          void start(name.trim(), today()).then(onStarted);
        }}
      >
        Start this show
      </button>
    </div>
  );
}

/** The show a sale is for, as the form offers it. */
export type ShowChoice = Pick<Show, 'key' | 'name' | 'date'>;

/**
 * "Sold here": off the marketplace at once (via the outbox offline) and into the show's ledger.
 * `show`: on a show's page, that show is the sale's, whether or not this device's list holds it yet.
 */
export function SoldHere({ listing, show }: { listing: ListingRead; show?: ShowChoice }) {
  const writeButton = useWriteButton();
  const [open, setOpen] = useState(false);
  // The form is made at the first opening; Cancel hides it, keeping what was typed.
  const [opened, setOpened] = useState(false);
  // The ledger is asked once the seller opens the form (the counter view asks at once).
  const { sale, write } = useShowSale(listing.id, open);
  // Sold: the form closes and forgets this sale's amounts (an undo starts a new sale afresh).
  const made = sale !== undefined || write !== undefined;
  if (made && opened) {
    setOpen(false);
    setOpened(false);
  }
  const title = listing.title ?? listing.card?.title ?? 'this card';

  if (sale || write) {
    return (
      <>
        {sale && <ShowSaleNote sale={sale} title={title} />}
        {write && <SaleState write={write} />}
      </>
    );
  }
  if (listing.unavailable_reason === 'sold') return null;
  return (
    <>
      {!open && (
        <button
          type="button"
          className="button primary sold-here-open"
          {...writeButton}
          onClick={() => {
            setOpened(true);
            setOpen(true);
          }}
        >
          Sold here
        </button>
      )}
      {opened && (
        <SaleForm listing={listing} show={show} hidden={!open} onCancel={() => setOpen(false)} />
      )}
    </>
  );
}

/** The sale's form: the show, the amounts and the tenders. */
function SaleForm({
  listing,
  show,
  hidden,
  onCancel,
}: {
  listing: ListingRead;
  show: ShowChoice | undefined;
  hidden: boolean;
  onCancel(): void;
}) {
  const client = useApiClient();
  const shows = useQuery(showsQuery(client));
  const facts = useCardFacts();
  const sell = useSellAtShow();
  const known: readonly ShowChoice[] = shows.data ?? [];
  const list = show && !known.some(({ key }) => key === show.key) ? [show, ...known] : known;
  const todays = show ?? list.find(({ date }) => date === today()) ?? list[0];
  const form = useForm<SaleValues>({
    resolver: zodResolver(saleSchema),
    defaultValues: {
      showKey: todays?.key ?? '',
      price: listing.price ?? '',
      discount: '',
      tenders: ['cash'],
      cashAmount: '',
      cardAmount: '',
      otherAmount: '',
      otherNote: '',
      tradeTitle: '',
      tradeCert: '',
      tradeValue: '',
    },
  });
  const { register, handleSubmit, watch, setValue, resetField, formState } = form;
  // A new price on this slab is the amount offered.
  useEffect(() => {
    resetField('price', { defaultValue: listing.price ?? '' });
    resetField('discount', { defaultValue: '' });
  }, [listing.price, resetField]);
  // Each opening chooses today's show if none is chosen (not as the shows come in).
  useEffect(() => {
    if (!hidden && !form.getValues('showKey') && todays) setValue('showKey', todays.key);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- at an opening only
  }, [hidden]);
  const errors = formState.errors;
  const price = watch('price');
  const discount = discountCents(listing.price, price);
  const cost = listing.card?.id ? facts.data?.get(listing.card.id)?.cost : undefined;

  // Cancelled: nothing drawn, the form's values and errors kept for the next opening.
  if (hidden) return null;
  return (
    <form
      className="panel sold-here"
      aria-label={`Sold here: ${listing.title ?? 'listing'}`}
      noValidate
      onSubmit={(event) =>
        void handleSubmit(async (values) => {
          await sell(listing, {
            showKey: values.showKey,
            price: twoDecimals(values.price),
            discount: discount > 0 ? formatCents(discount) : null,
            tenders: tenderBodies(values),
            cost: cost ?? null,
          });
        })(event)
      }
    >
      <p className="sold-here-card">
        <strong>{listing.title}</strong>
        {cost && <> · cost {formatMoney(cost)}</>}
      </p>
      {list.length === 0 ? (
        <StartShow onStarted={(key) => setValue('showKey', key, { shouldValidate: true })} />
      ) : (
        <FormField label="Show" error={errors.showKey?.message}>
          {(control) => (
            <select {...control} {...register('showKey')}>
              <Options
                of={list.map((show) => [show.key, `${show.name} (${formatDay(show.date)})`])}
              />
            </select>
          )}
        </FormField>
      )}
      {list.length === 0 && errors.showKey && (
        <p className="field-error">{errors.showKey.message}</p>
      )}
      <div className="sold-here-amounts">
        <FormField label="Discount ($)" error={errors.discount?.message}>
          {(control) => (
            <input
              {...control}
              inputMode="decimal"
              {...register('discount', {
                // Typing the discount sets the price: the asking price less it.
                onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
                  const off = saleCents(event.target.value);
                  if (!listing.price || off === undefined) return;
                  const left = (centsOf(listing.price) ?? 0) - off;
                  if (left > 0) setValue('price', formatCents(left));
                },
              })}
            />
          )}
        </FormField>
        <FormField label="Sold for ($)" error={errors.price?.message}>
          {(control) => (
            <input
              {...control}
              inputMode="decimal"
              {...register('price', {
                // Typing the price says the discount.
                onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
                  const off = discountCents(listing.price, event.target.value);
                  setValue('discount', off > 0 ? formatCents(off) : '');
                },
              })}
            />
          )}
        </FormField>
      </div>
      <dl className="sold-here-sum" aria-label="The sale">
        <Fact box label="Asking" figure>
          {formatMoney(listing.price)}
        </Fact>
        <Fact box label="Discount" figure>
          {discount > 0 ? `−${formatDollars(discount)}` : 'none'}
        </Fact>
        <Fact box label="Total" figure>
          {/^\d{1,7}(\.\d{1,2})?$/.test(price.trim()) ? formatMoney(price.trim()) : '—'}
        </Fact>
      </dl>
      <TenderFields form={form} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={formState.isSubmitting}>
          Record the sale
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
