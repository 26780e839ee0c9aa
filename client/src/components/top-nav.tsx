import { Box, chakra, Flex, HStack } from '@chakra-ui/react';
import { Link, useLocation } from 'react-router-dom';
import { FootballIcon, GearIcon } from './icons';

const NavLink = chakra(Link);

/** Which tab is current (SPEC §2): Groups on /groups/* and on /select-players?groupId=…; My Picks on /select-players without one. */
export function activeTab(pathname: string, search: string): 'groups' | 'my-picks' | 'leaderboard' | 'settings' | null {
  const hasGroup = new URLSearchParams(search).has('groupId');
  if (pathname === '/groups' || pathname.startsWith('/groups/')) return 'groups';
  if (pathname === '/select-players') return hasGroup ? 'groups' : 'my-picks';
  if (pathname === '/my-picks') return 'my-picks';
  if (pathname === '/leaderboard') return 'leaderboard';
  if (pathname === '/settings') return 'settings';
  return null;
}

const tabs = [
  { key: 'groups', label: 'Groups', to: '/groups' },
  { key: 'my-picks', label: 'My Picks', to: '/my-picks' },
  { key: 'leaderboard', label: 'Leaderboard', to: '/leaderboard' },
] as const;

export function Brand() {
  return (
    <HStack gap="2" color="white" fontWeight="black" letterSpacing="wider" fontSize={{ base: 'md', md: 'lg' }} textTransform="uppercase">
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
          <NavLink
            to="/settings"
            aria-label="Settings"
            aria-current={current === 'settings' ? 'page' : undefined}
            order={{ base: 2, md: 3 }}
            p="2"
            borderRadius="full"
            color={current === 'settings' ? 'gold.400' : 'navy.100'}
            _hover={{ color: 'white', bg: 'whiteAlpha.200' }}
            _focusVisible={focusRing}
          >
            <GearIcon size={22} />
          </NavLink>
        )}
      </Flex>
    </Box>
  );
}
