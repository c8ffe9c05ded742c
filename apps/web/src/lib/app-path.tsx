import { forwardRef, useCallback, type ComponentProps } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { isDemoPath, toAppPath } from './demo';

export function useIsDemo(): boolean {
  return isDemoPath(useLocation().pathname);
}

/** Prefixes internal paths with /demo inside the demo; use it for every internal href. */
export function useAppPath(): (path: string) => string {
  const demo = useIsDemo();
  return useCallback((path: string) => toAppPath(path, demo), [demo]);
}

type LinkProps = ComponentProps<typeof Link> & { to: string };

/** The app's internal link: the same markup in the console and in the demo. */
export const AppLink = forwardRef<HTMLAnchorElement, LinkProps>(function AppLink(
  { to, ...rest },
  ref,
) {
  const appPath = useAppPath();
  return <Link ref={ref} to={appPath(to)} {...rest} />;
});

type NavLinkProps = ComponentProps<typeof NavLink> & { to: string };

export const AppNavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function AppNavLink(
  { to, ...rest },
  ref,
) {
  const appPath = useAppPath();
  return <NavLink ref={ref} to={appPath(to)} {...rest} />;
});
