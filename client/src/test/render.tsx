import type { ReactElement, ReactNode } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, unstable_HistoryRouter as HistoryRouter, useLocation } from 'react-router-dom';
import { system } from '../theme';
import { appGuard } from '../lib/app-history';
import { holdBackLink } from '../lib/hold-gate';
import { createQueryClient } from '../lib/query-client';
import { AppToaster } from '../lib/toaster';
import { trpc } from '../lib/trpc';
import { FakeServer, type Handlers } from './fake-server';

/** Where the app is (pathname and search), shown for the tests to read after a navigation. */
function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{pathname + search}</output>;
}

/**
 * A screen as the app mounts it (app.tsx): Chakra with the app's theme, the app's query client, the tRPC
 * client whose first link is the hold-back gate, the router on the guarded browser history, and the toaster,
 * with the network replaced by `server` (a FakeServer, or the handlers to build one). `route` is where the
 * browser is (`from` the page before it, for Back), `path` the route pattern the screen is mounted at (default: the route's path); any other path
 * shows 'Another screen'.
 */
export function renderApp(ui: ReactElement, { server = new FakeServer(), route = '/', path, from }: { server?: FakeServer | Handlers; route?: string; path?: string; from?: string } = {}) {
  const fake = server instanceof FakeServer ? server : new FakeServer(server);
  const queryClient = createQueryClient();
  const client = trpc.createClient({ links: [holdBackLink(), fake.link()] });
  goTo(route, from);
  const user = userEvent.setup();
  const screenPath = path ?? new URL(route, 'http://app').pathname;
  // A wrapper, so that `rerender(ui)` keeps the providers, the caches and the screen's state.
  function App({ children }: { children: ReactNode }) {
    return (
      <ChakraProvider value={system}>
        <trpc.Provider client={client} queryClient={queryClient}>
          <QueryClientProvider client={queryClient}>
            <HistoryRouter history={appGuard.history}>
              <Routes>
                <Route path={screenPath} element={children} />
                <Route path="*" element={<p>Another screen</p>} />
              </Routes>
              <Where />
              <AppToaster />
            </HistoryRouter>
          </QueryClientProvider>
        </trpc.Provider>
      </ChakraProvider>
    );
  }
  const view = render(ui, { wrapper: App });
  return { ...view, server: fake, queryClient, user };
}

/**
 * Puts the browser at `route` (after `from`, for Back) through the app's guarded history, listening for a
 * moment as the router does, so the guard knows where the router stands before the screen mounts.
 */
function goTo(route: string, from?: string) {
  const stop = appGuard.history.listen(() => undefined);
  if (from) {
    appGuard.history.replace(from);
    appGuard.history.push(route);
  } else {
    appGuard.history.replace(route);
  }
  stop();
}

/** Where the router is now ('/my-picks?x=1'). */
export const currentPath = () => screen.getByTestId('location').textContent;
