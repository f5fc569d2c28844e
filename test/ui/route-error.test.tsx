// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, expect, it } from 'vitest';
import { ApiError } from '../../src/client';
import { errorWords } from '../../src/lib/error-words';
import { RouteError } from '../../src/app/route-error';

afterEach(cleanup);

/** A one-route app whose loader fails with `error`. */
function failWith(error: unknown) {
  const router = createMemoryRouter([
    {
      path: '/',
      loader: () => {
        throw error;
      },
      Component: () => <p>never drawn</p>,
      errorElement: <RouteError />,
    },
  ]);
  render(<RouterProvider router={router} />);
}

it('says an API error in its own words (loaded with the error), then its details', async () => {
  const words = errorWords('seller_frozen');
  failWith(new ApiError({ status: 403, code: 'seller_frozen', message: 'frozen' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(words.what);
  expect(screen.getByText(words.next, { exact: false })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'This page could not be shown' })).toBeInTheDocument();
  expect(screen.getByText('seller_frozen')).toBeInTheDocument();
});

it('says any other failure plainly, its message under Details', async () => {
  failWith(new Error('chunk failed'));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'Something went wrong while the page was loading.',
  );
  expect(screen.getByText('chunk failed')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Back to the overview' })).toHaveAttribute('href', '/');
});
