import { Box, chakra, Flex, HStack } from '@chakra-ui/react';
import { Link, useLocation } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { trpc } from '../lib/trpc';
import { FootballIcon, GearIcon, HelpIcon, ShieldIcon } from './icons';

const NavLink = chakra(Link);

/** Which tab is current (docs/web-app.md): Groups on /groups/* and on /select-players?groupId=…; My Picks on /select-players without one. */
export function activeTab(pathname: string, search: string): 'groups' | 'my-picks' | 'leaderboard' | 'settings' | 'how-to-play' | 'admin' | null {
  const hasGroup = new URLSearchParams(search).has('groupId');
  if (pathname === '/groups' || pathname.startsWith('/groups/')) return 'groups';
  if (pathname === '/select-players') return hasGroup ? 'groups' : 'my-picks';
  if (pathname === '/my-picks') return 'my-picks';
  if (pathname === '/leaderboard') return 'leaderboard';
  if (pathname === '/settings') return 'settings';
  if (pathname === '/how-to-play' || pathname === '/welcome') return 'how-to-play';
  if (pathname === '/admin') return 'admin';
  return null;
}

const tabs = [
  { key: 'groups', label: 'Groups', to: '/groups' },
  { key: 'my-picks', label: 'My Picks', to: '/my-picks' },
  { key: 'leaderboard', label: 'Leaderboard', to: '/leaderboard' },
] as const;

export function Brand() {
  return (
    <HStack gap="2" color="white" fontFamily="heading" fontWeight="black" letterSpacing="wider" fontSize={{ base: 'xl', md: '2xl' }} lineHeight="24px" textTransform="uppercase">
      <Box color="gold.400">
        <FootballIcon size={24} />
      </Box>
      <span>First Round</span>
    </HStack>
  );
}

const focusRing = { outline: '2px solid', outlineColor: 'gold.400', outlineOffset: '2px' };

export function TopNav({ signedIn }: { signedIn: boolean }) {
  const { pathname, search } = useLocation();
  const current = activeTab(pathname, search);
  return (
    <Box as="header" bg="navy.900" color="white" position="sticky" top="0" zIndex="sticky" boxShadow="0 2px 10px rgba(7,20,40,0.35)">
      <Flex maxW="5xl" mx="auto" px={{ base: '3', md: '6' }} align="center" justify="space-between" wrap="wrap" columnGap="6">
        <NavLink to={signedIn ? '/groups' : '/'} py="3" borderRadius="sm" _focusVisible={focusRing} aria-label="First Round home">
          <Brand />
        </NavLink>
        {signedIn && (
          <Flex as="nav" aria-label="Main" align="stretch" order={{ base: 3, md: 2 }} width={{ base: '100%', md: 'auto' }} flex={{ md: '1' }} gap={{ base: '0', md: '1' }}>
            {tabs.map((tab) => {
              const active = current === tab.key;
              return (
                <NavLink
                  key={tab.key}
                  to={tab.to}
                  aria-current={active ? 'page' : undefined}
                  flex={{ base: '1', md: 'none' }}
                  textAlign="center"
                  px={{ base: '1', md: '4' }}
                  py="3"
                  fontSize="sm"
                  fontWeight="bold"
                  letterSpacing="wide"
                  textTransform="uppercase"
                  color={active ? 'white' : 'navy.200'}
                  borderBottom="3px solid"
                  borderColor={active ? 'gold.400' : 'transparent'}
                  _hover={{ color: 'white' }}
                  _focusVisible={focusRing}
                  whiteSpace="nowrap"
                >
                  {tab.label}
                </NavLink>
              );
            })}
          </Flex>
        )}
        {signedIn && (
          <HStack gap="1" order={{ base: 2, md: 3 }}>
            <AdminLink active={current === 'admin'} />
            <IconLink to="/settings" label="Settings" active={current === 'settings'}>
              <GearIcon size={22} />
            </IconLink>
            <IconLink to="/how-to-play" label="How to play" active={current === 'how-to-play'}>
              <HelpIcon size={22} />
            </IconLink>
          </HStack>
        )}
      </Flex>
    </Box>
  );
}

/** A round icon link of the header's right-hand side (its name is its aria-label and tooltip). */
function IconLink({ to, label, active, children }: { to: string; label: string; active: boolean; children: React.ReactNode }) {
  return (
    <NavLink
      to={to}
      aria-label={label}
      title={label}
      aria-current={active ? 'page' : undefined}
      p="2"
      borderRadius="full"
      color={active ? 'gold.400' : 'navy.100'}
      _hover={{ color: 'white', bg: 'whiteAlpha.200' }}
      _focusVisible={focusRing}
    >
      {children}
    </NavLink>
  );
}

/** Operators (ADMIN_EMAILS, `is_admin` on the profile) reach the draft console from every page. */
function AdminLink({ active }: { active: boolean }) {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: STALE_TIMES.profile });
  if (!me.data?.is_admin) return null;
  return (
    <NavLink
      to="/admin"
      aria-current={active ? 'page' : undefined}
      display="flex"
      alignItems="center"
      gap="1"
      px="2"
      py="1"
      borderRadius="md"
      fontSize="xs"
      fontWeight="black"
      letterSpacing="wide"
      textTransform="uppercase"
      color={active ? 'navy.900' : 'gold.400'}
      bg={active ? 'gold.400' : 'transparent'}
      borderWidth="1px"
      borderColor="gold.400"
      _hover={{ bg: 'gold.400', color: 'navy.900' }}
      _focusVisible={focusRing}
    >
      <ShieldIcon size={14} /> Admin
    </NavLink>
  );
}
