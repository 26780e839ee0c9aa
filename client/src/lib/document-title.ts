import { useEffect } from 'react';

/*
 * `document.title` per screen: the page's own h1 ("Edit Picks · First Round", the group's name on a group
 * page), and until a page has drawn its title (loading, a redirect) the route's name. Pages register
 * their title while mounted and the shell sets the route's, so the order in which React runs their
 * effects (children first) does not matter.
 */

const PRODUCT = 'First Round';
let routeTitle: string | null = null;
const pageTitles: { title: string }[] = [];

/** The route's name for a path: what the tab says before the page's own title is known. */
export function routeTitleFor(pathname: string): string | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  const fixed: Record<string, string> = {
    '/sign-in': 'Sign In',
    '/sign-up': 'Sign Up',
    '/auth/callback': 'Signing In',
    '/welcome': 'How to Play',
    '/how-to-play': 'How to Play',
    '/select-players': 'Select Players',
    '/my-picks': 'My Picks',
    '/leaderboard': 'Leaderboard',
    '/groups': 'My Groups',
    '/groups/create': 'Create a Group',
    '/groups/join': 'Join a Group',
    '/settings': 'Settings',
    '/admin': 'Draft Control',
  };
  if (fixed[path]) return fixed[path];
  if (path.startsWith('/groups/join/')) return 'Group Invitation';
  if (/^\/groups\/[^/]+\/picks$/.test(path)) return 'Group Picks';
  if (/^\/groups\/[^/]+\/board$/.test(path)) return 'Draft Board';
  if (/^\/groups\/[^/]+\/tv$/.test(path)) return 'TV View';
  if (/^\/groups\/[^/]+$/.test(path)) return 'Group';
  return null;
}

/** "Edit Picks · First Round"; a title that already names the product stands alone. */
export function formatTitle(title: string | null): string {
  if (!title) return PRODUCT;
  return title.includes(PRODUCT) ? title : `${title} · ${PRODUCT}`;
}

function apply() {
  document.title = formatTitle(pageTitles[pageTitles.length - 1]?.title ?? routeTitle);
}

/** The shell: the route's name, whenever the path changes. */
export function useRouteTitle(pathname: string) {
  useEffect(() => {
    routeTitle = routeTitleFor(pathname);
    apply();
  }, [pathname]);
}

/** A page's own title while it is on screen (null or empty: none). */
export function useDocumentTitle(title: string | null | undefined) {
  useEffect(() => {
    if (!title) return;
    const entry = { title };
    pageTitles.push(entry);
    apply();
    return () => {
      pageTitles.splice(pageTitles.indexOf(entry), 1);
      apply();
    };
  }, [title]);
}
