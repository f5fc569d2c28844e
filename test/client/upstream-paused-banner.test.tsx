// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client';
import { ErrorBanner } from '../../src/components/error-banner';
import { formatDateTime } from '../../src/lib/format';

afterEach(cleanup);

describe('the page on upstream_paused', () => {
  it('shows the pause and until when, in this browser’s clock, with its code under Details', () => {
    const until = new Date(Date.now() + 86_400_000);
    const error = ApiError.fromResponse(503, new Headers({ 'retry-after': '86400' }), {
      errors: 'The API asked us to wait 24 h; writes and reads are paused until 3:00 AM.',
      svc_error: {
        code: 'upstream_paused',
        request_id: null,
        retry_after_seconds: 86_400,
        until: until.toISOString(),
      },
    });
    render(<ErrorBanner error={error} title="Could not load the listings" />);
    const alert = screen.getByRole('alert');
    // In the seller's words, until when in this browser's zone, as every date is written.
    expect(alert).toHaveTextContent('The marketplace asked the dashboard to wait.');
    expect(alert).toHaveTextContent(
      `The dashboard waits until ${formatDateTime(until.toISOString())}, then carries on by itself.`,
    );
    // The code stays for support, under Details.
    const details = alert.querySelector('details')!;
    expect(details).not.toBeNull();
    expect(details).toHaveTextContent('upstream_paused');
  });
});
