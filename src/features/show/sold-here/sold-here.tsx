import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { ListingRead } from '../../../client';
import { useApiClient } from '../../../api/api-context';
import { useCardFacts } from '../../../api/inventory/inventory-queries';
import type { SaleWrite } from '../../../api/outbox/outbox';
import { formatCents } from '../../../api/shows/show-money';
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
import { useWriteButton } from '../../../components/write-actions';
import { formatMoney, formatShortDate } from '../../../lib/format';
import { saleSchema, twoDecimals, type SaleValues } from './sale-schema';
import './sold-here.css';

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
  const words =
    write.state === 'done' ||
    write.state === 'failed' ||
    write.state === 'held' ||
    write.state === 'dropped'
      ? write.outcome
      : write.state === 'sending'
        ? 'Sending…'
        : 'Saved on this phone: it will be sent when the connection is back.';
  return (
    <p
      className={`banner ${
        write.state === 'failed' || write.state === 'dropped'
          ? 'banner-error'
          : write.state === 'held'
            ? 'banner-warn'
            : 'banner-ok'
      }`}
      role="status"
    >
      {words}
    </p>
  );
}

/** "Sold at Philly Card Show on Nov 28 for $250.00 cash": the slab's sale, said first. */
function ShowSaleNote({ sale }: { sale: SoldAtShow }) {
  const price = formatCents(sale.priceCents);
  const paid = sale.traded
    ? `${price} (a card in trade${sale.cashCents > 0 ? ` and ${formatCents(sale.cashCents)} cash` : ''})`
    : `${price} cash`;
  return (
    <p className="banner banner-warn" role="status">
      <strong>
        Sold {sale.showName ? `at ${sale.showName}` : 'at a show'} on{' '}
        <Figure kind="date">{formatShortDate(sale.soldAt)}</Figure> for {paid}.
      </strong>{' '}
      A slab is sold once.
    </p>
  );
}

/** Starts a show from the sale form, when there is none yet for today. */
function StartShow({ onStarted }: { onStarted(key: string): void }) {
  const start = useStartShow();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  return (
    <div className="sold-here-start">
      <FormField label="Show name" error={error}>
        {(control) => (
          <input
            {...control}
            value={name}
            maxLength={120}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </FormField>
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

/**
 * "Sold here": the listing comes off the marketplace at once (through the outbox when there is
 * no network) and the sale goes into the show's ledger: cash, or a card taken in trade.
 */
export function SoldHere({ listing }: { listing: ListingRead }) {
  const client = useApiClient();
  const shows = useQuery(showsQuery(client));
  const facts = useCardFacts();
  const sell = useSellAtShow();
  const writeButton = useWriteButton();
  const [open, setOpen] = useState(false);
  // The ledger is asked once the seller opens the form (the counter view asks at once).
  const { sale, write } = useShowSale(listing.id, open);
  const list = shows.data ?? [];
  const todays = list.find((show) => show.date === today()) ?? list[0];
  const form = useForm<SaleValues>({
    resolver: zodResolver(saleSchema),
    defaultValues: {
      showKey: todays?.key ?? '',
      price: listing.price ?? '',
      payment: 'cash',
      tradeTitle: '',
      tradeCert: '',
      tradeValue: '',
    },
  });
  const { register, handleSubmit, watch, setValue, resetField, formState } = form;
  // A new price on this slab is the amount offered.
  useEffect(() => {
    resetField('price', { defaultValue: listing.price ?? '' });
  }, [listing.price, resetField]);
  const errors = formState.errors;
  const payment = watch('payment');
  const cost = listing.card?.id ? facts.data?.get(listing.card.id)?.cost : undefined;
  const sold = listing.unavailable_reason === 'sold';

  if (sale || write) {
    return (
      <>
        {sale && <ShowSaleNote sale={sale} />}
        {write && <SaleState write={write} />}
      </>
    );
  }
  if (sold) return null;
  if (!open) {
    return (
      <button
        type="button"
        className="button primary sold-here-open"
        {...writeButton}
        onClick={() => {
          if (!form.getValues('showKey') && todays) setValue('showKey', todays.key);
          setOpen(true);
        }}
      >
        Sold here
      </button>
    );
  }
  return (
    <form
      className="panel sold-here"
      aria-label={`Sold here: ${listing.title ?? 'listing'}`}
      noValidate
      onSubmit={(event) =>
        void handleSubmit(async (values) => {
          const price = twoDecimals(values.price);
          await sell(listing, {
            showKey: values.showKey,
            price,
            tradeIn:
              values.payment === 'trade'
                ? {
                    title: values.tradeTitle,
                    certNumber: values.tradeCert || null,
                    value: twoDecimals(values.tradeValue),
                  }
                : null,
            cost: cost ?? null,
          });
        })(event)
      }
    >
      <p className="sold-here-card">
        <strong>{listing.title}</strong> · asking {formatMoney(listing.price)}
        {cost && <> · cost {formatMoney(cost)}</>}
      </p>
      {list.length === 0 ? (
        <StartShow onStarted={(key) => setValue('showKey', key, { shouldValidate: true })} />
      ) : (
        <FormField label="Show" error={errors.showKey?.message}>
          {(control) => (
            <select {...control} {...register('showKey')}>
              {list.map((show) => (
                <option key={show.key} value={show.key}>
                  {show.name} ({show.date})
                </option>
              ))}
            </select>
          )}
        </FormField>
      )}
      {list.length === 0 && errors.showKey && (
        <p className="field-error">{errors.showKey.message}</p>
      )}
      <FormField label="Sold for ($)" error={errors.price?.message}>
        {(control) => <input {...control} inputMode="decimal" {...register('price')} />}
      </FormField>
      <fieldset className="sold-here-payment">
        <legend>Paid with</legend>
        <label>
          <input type="radio" value="cash" {...register('payment')} /> Cash
        </label>
        <label>
          <input type="radio" value="trade" {...register('payment')} /> A card in trade
        </label>
      </fieldset>
      {payment === 'trade' && (
        <>
          <FormField label="Card taken in trade" error={errors.tradeTitle?.message}>
            {(control) => <input {...control} {...register('tradeTitle')} />}
          </FormField>
          <FormField label="Its cert number (optional)" error={errors.tradeCert?.message}>
            {(control) => <input {...control} inputMode="numeric" {...register('tradeCert')} />}
          </FormField>
          <FormField
            label="Its agreed value ($)"
            error={errors.tradeValue?.message}
            hint="Becomes its cost when you list it. The rest of the price is cash."
          >
            {(control) => <input {...control} inputMode="decimal" {...register('tradeValue')} />}
          </FormField>
        </>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={formState.isSubmitting}>
          Record the sale
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
