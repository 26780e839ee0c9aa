import { Suspense, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Route, Routes, unstable_HistoryRouter as HistoryRouter } from 'react-router-dom';
import { appGuard } from './lib/app-history';
import { system } from './theme';
import { createQueryClient } from './lib/query-client';
import { AppToaster } from './lib/toaster';
import { AuthProvider, type ClientConfig } from './auth/auth-provider';
import { AppShell, HomeRedirect, ProtectedRoute } from './components/layouts';
import { FullPageMessage } from './components/full-page-message';
import { useProfile } from './lib/queries';
import { lazyNamed } from './lib/connectivity';

/** Route-level code splitting: each page is its own chunk (one that failed to load offline loads once back). */
const page = lazyNamed;

const SignInPage = page(() => import('./pages/sign-in-page'), 'SignInPage');
const SignUpPage = page(() => import('./pages/sign-up-page'), 'SignUpPage');
const AuthCallbackPage = page(() => import('./pages/auth-callback-page'), 'AuthCallbackPage');
const JoinLinkPage = page(() => import('./pages/groups/join-link-page'), 'JoinLinkPage');
const HowToPlayPage = page(() => import('./pages/how-to-play-page'), 'HowToPlayPage');
const SelectPlayersPage = page(() => import('./pages/select-players-page'), 'SelectPlayersPage');
const MyPicksPage = page(() => import('./pages/my-picks-page'), 'MyPicksPage');
const LivePage = page(() => import('./pages/live-page'), 'LivePage');
const LeaderboardPage = page(() => import('./pages/leaderboard-page'), 'LeaderboardPage');
const GroupsPage = page(() => import('./pages/groups/groups-page'), 'GroupsPage');
const CreateGroupPage = page(() => import('./pages/groups/create-group-page'), 'CreateGroupPage');
const JoinGroupPage = page(() => import('./pages/groups/join-group-page'), 'JoinGroupPage');
const GroupPage = page(() => import('./pages/groups/group-page'), 'GroupPage');
const GroupPicksPage = page(() => import('./pages/groups/group-picks-page'), 'GroupPicksPage');
const DraftBoardPage = page(() => import('./pages/groups/draft-board-page'), 'DraftBoardPage');
const TvPage = page(() => import('./pages/groups/tv-page'), 'TvPage');
// The TV view's own layout (no header, tabs or strip): its own chunk, as only a watch party loads it.
const TvShell = page(() => import('./components/tv/tv-shell'), 'TvShell');
const SeasonStandingsPage = page(() => import('./pages/season-standings-page'), 'SeasonStandingsPage');
const SettingsPage = page(() => import('./pages/settings-page'), 'SettingsPage');
const AuthTestPage = page(() => import('./pages/auth-test-page'), 'AuthTestPage');
const AuthDebugPage = page(() => import('./pages/auth-debug-page'), 'AuthDebugPage');
const AccountFixPage = page(() => import('./pages/account-fix-page'), 'AccountFixPage');
const NotFoundPage = page(() => import('./pages/not-found-page'), 'NotFoundPage');
// The operator console is its own chunk, downloaded only by admins.
const AdminPage = page(() => import('./pages/admin-page'), 'AdminPage');

/** /admin: the operator console for admins (ADMIN_EMAILS); everyone else gets the 404 page. */
function AdminRoute() {
  const me = useProfile();
  if (me.isPending) return <FullPageMessage>Loading...</FullPageMessage>;
  return me.data?.is_admin ? <AdminPage /> : <NotFoundPage />;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppShell />}>
        <Route path="/" element={<HomeRedirect />} />
        <Route path="/sign-in" element={<SignInPage />} />
        <Route path="/sign-up" element={<SignUpPage />} />
        <Route path="/auth/callback" element={<AuthCallbackPage />} />
        <Route path="/groups/join/:token" element={<JoinLinkPage />} />
        {/* The spectators' page: anyone, signed in or not. */}
        <Route path="/live" element={<LivePage />} />
        <Route element={<ProtectedRoute />}>
          <Route path="/welcome" element={<HowToPlayPage />} />
          <Route path="/how-to-play" element={<HowToPlayPage />} />
          <Route path="/select-players" element={<SelectPlayersPage />} />
          <Route path="/my-picks" element={<MyPicksPage />} />
          <Route path="/leaderboard" element={<LeaderboardPage />} />
          <Route path="/groups" element={<GroupsPage />} />
          <Route path="/groups/create" element={<CreateGroupPage />} />
          <Route path="/groups/join" element={<JoinGroupPage />} />
          <Route path="/groups/:groupId" element={<GroupPage />} />
          <Route path="/groups/:groupId/picks" element={<GroupPicksPage />} />
          <Route path="/groups/:groupId/board" element={<DraftBoardPage />} />
          <Route path="/groups/:groupId/seasons/:year" element={<SeasonStandingsPage />} />
          <Route path="/leaderboard/seasons/:year" element={<SeasonStandingsPage />} />
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/auth-test" element={<AuthTestPage />} />
          <Route path="/auth-debug" element={<AuthDebugPage />} />
          <Route path="/account-fix" element={<AccountFixPage />} />
          <Route path="/admin" element={<AdminRoute />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
      {/* The watch-party TV view: signed-in members only, full screen, without the app's chrome. */}
      <Route element={<Suspense fallback={<FullPageMessage>Loading...</FullPageMessage>}><TvShell /></Suspense>}>
        <Route element={<ProtectedRoute />}>
          <Route path="/groups/:groupId/tv" element={<TvPage />} />
        </Route>
      </Route>
    </Routes>
  );
}

/** `queryClient`: made by main.tsx, holding the answers this device kept (lib/persisted-queries.ts). */
export function App({ config, queryClient: given }: { config: ClientConfig; queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  // The tRPC client is built inside AuthProvider, which knows how to get a token.
  return (
    <ChakraProvider value={system}>
      <QueryClientProvider client={queryClient}>
        {/* The browser history behind the one navigation guard (lib/navigation-guard.ts): a screen with unsaved changes asks before leaving. */}
        <HistoryRouter history={appGuard.history}>
          <AuthProvider config={config}>
            <AppRoutes />
            <AppToaster />
          </AuthProvider>
        </HistoryRouter>
      </QueryClientProvider>
    </ChakraProvider>
  );
}
