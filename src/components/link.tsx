import type { AnchorHTMLAttributes } from 'react';
import { createPath, useLocation, type To } from 'react-router';
import { hrefOf } from '../lib/router/history';
import { useMove } from '../lib/router/router-view';

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: To;
  replace?: boolean;
  state?: unknown;
};

/**
 * A link within the dashboard: a real `<a href>` (open in a new tab, copy the address) that moves
 * in the page on a plain click; a click with a modifier key, or for another target, is the
 * browser's. A link to the page already shown replaces its history entry instead of adding one.
 * Every address in the dashboard is absolute (`paths`), so the link needs no resolving; ours
 * rather than the router package's, whose link resolves relative paths and prefetches route
 * modules, costs each of a table's rows several hooks.
 */
export function Link({ to, replace, state, target, onClick, ...rest }: LinkProps) {
  const href = hrefOf(to);
  const here = createPath(useLocation());
  const move = useMove();
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        const modified = event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
        if (event.defaultPrevented || event.button !== 0 || modified) return;
        if (target && target !== '_self') return;
        event.preventDefault();
        move(to, { replace: replace ?? href === here, state });
      }}
    />
  );
}

/**
 * A navigation link that marks itself as the current page (`aria-current="page"`, class
 * `active`) on its own address and, unless `end`, on every address below it.
 */
export function NavLink({ end, className, ...props }: LinkProps & { end?: boolean }) {
  const { pathname } = useLocation();
  const target = hrefOf(props.to).split(/[?#]/)[0] ?? '';
  const below = target.endsWith('/') ? target : `${target}/`;
  const current = pathname === target || (!end && pathname.startsWith(below));
  return (
    <Link
      {...props}
      aria-current={current ? 'page' : undefined}
      className={[className, current ? 'active' : ''].filter(Boolean).join(' ') || undefined}
    />
  );
}
