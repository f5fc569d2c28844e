import type { AnchorHTMLAttributes } from 'react';
import { useHref, useLinkClickHandler, useLocation, useResolvedPath, type To } from 'react-router';

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: To;
  replace?: boolean;
  state?: unknown;
};

/**
 * A link within the dashboard: a real `<a href>` (open in a new tab, copy the address) that moves
 * in the page on a plain click. Ours rather than the router package's, whose link carries code
 * for framework features (prefetching route modules, forms) the dashboard never uses.
 */
export function Link({ to, replace, state, target, onClick, ...rest }: LinkProps) {
  const href = useHref(to);
  const follow = useLinkClickHandler(to, { replace, state, target });
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) follow(event);
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
  const target = useResolvedPath(props.to).pathname;
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
