// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client';
import { ErrorBanner } from '../../src/components/error-banner';
import { formatDateTime } from '../../src/lib/format';

describe('the error banner', () => {
  it("says until when the API's long pause holds, in the seller's own time", () => {
    const until = Date.parse('2026-11-27T22:15:00Z');
    const error = ApiError.fromResponse(503, new Headers({ 'retry-after': '86400' }), {
      errors: 'The API asked us to wait 24 h; writes and reads are paused until 10:15 PM.',
      svc_error: {
        code: 'upstream_paused',
        request_id: null,
        retry_after_seconds: 86_400,
        until: new Date(until).toISOString(),
      },
    });
    render(<ErrorBanner error={error} />);
    expect(
      screen.getByText(
        `The API asked us to wait 24 h; writes and reads are paused until ${formatDateTime(new Date(until).toISOString())}.`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('upstream_paused')).toBeInTheDocument();
  });
});
