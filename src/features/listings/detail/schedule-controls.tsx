import * as z from 'zod/mini';
import { useState } from 'react';
import { isApiError } from '../../../client';
import { ErrorBanner } from '../../../components/error-banner';
import { FormField } from '../../../components/form-field';
import { formatDateTime } from '../../../lib/format';
import { goLiveField } from '../forms/listing-form-schemas';
import { useUpdateListing } from '../../../api/listings/listing-mutations';

/** A listing not live yet: go live now, or move its go-live time. */
export function ScheduleControls({
  listingId,
  scheduledAt,
  onDone,
}: {
  listingId: string;
  /** The go-live time when a view gives it (the spec does not show it on reads). */
  scheduledAt: string | null | undefined;
  onDone(message: string): void;
}) {
  const update = useUpdateListing(listingId);
  const [when, setWhen] = useState('');
  const [error, setError] = useState<string | undefined>();
  const serverFieldError = isApiError(update.error)
    ? update.error.fieldErrors.scheduled_go_live_at?.join('; ')
    : undefined;

  return (
    <section className="panel" aria-labelledby="schedule-heading">
      <h2 id="schedule-heading">Go-live</h2>
      <p>
        {scheduledAt
          ? `Scheduled to go live ${formatDateTime(scheduledAt)}. The window counts from go-live.`
          : 'Scheduled, not live yet (the API does not show the go-live time). The window counts from go-live.'}
      </p>
      <form
        className="inline-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = goLiveField
            .check(z.refine((v) => v !== '', 'Enter a date and time'))
            .safeParse(when);
          if (!parsed.success) {
            setError(parsed.error.issues[0]?.message);
            return;
          }
          setError(undefined);
          update.mutate(
            { patch: { scheduled_go_live_at: new Date(when).toISOString() } },
            {
              onSuccess: () =>
                onDone(`Rescheduled to ${formatDateTime(new Date(when).toISOString())}.`),
            },
          );
        }}
      >
        <FormField
          label="New go-live time"
          error={error ?? serverFieldError}
          input={{ type: 'datetime-local', value: when, onChange: (e) => setWhen(e.target.value) }}
        />
        <button type="submit" disabled={update.isPending}>
          Reschedule
        </button>
        <button
          type="button"
          className="primary"
          disabled={update.isPending}
          onClick={() =>
            update.mutate(
              { patch: { scheduled_go_live_at: null } },
              { onSuccess: () => onDone('Released: the listing is live now.') },
            )
          }
        >
          Go live now
        </button>
      </form>
      {update.error && !serverFieldError && (
        <ErrorBanner error={update.error} title="The schedule was not changed" />
      )}
    </section>
  );
}
