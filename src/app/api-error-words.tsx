import type { ReactNode } from 'react';
import { errorWords, type ErrorWords } from '../lib/error-words';

/** An API error's words by its code, for the route's error page: loaded only when needed. */
export default function ApiErrorWords({
  code,
  children,
}: {
  code: string;
  children: (words: ErrorWords) => ReactNode;
}) {
  return children(errorWords(code));
}
