import { Box, Grid, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { CountdownBanner } from './countdown-banner';
import { PageTitle } from './page';

/**
 * The sign-in and sign-up frame: navy stadium backdrop, the countdown, then the form card. `before`
 * (an invitation) sits above the form; `aside` (the landing's pitch) beside it on wide screens, above it
 * on phones, or below it with `asideAfter` (an invited visitor sees the invitation and the form first).
 */
export function AuthFrame({
  title,
  tagline,
  children,
  footer,
  before,
  aside,
  asideAfter = false,
}: {
  title: string;
  tagline?: string;
  children: ReactNode;
  footer: ReactNode;
  before?: ReactNode;
  aside?: ReactNode;
  asideAfter?: boolean;
}) {
  const form = (
    <Stack maxW="md" width="100%" mx="auto" gap="5">
      <CountdownBanner />
      {before}
      <Box bg="white" borderRadius="2xl" boxShadow="xl" p={{ base: '5', md: '8' }} id="auth-form">
        <Stack gap="2" mb="6" textAlign="center">
          <PageTitle title={title} subtitle={tagline} />
        </Stack>
        {children}
      </Box>
      <Box textAlign="center" color="navy.100">
        {footer}
      </Box>
    </Stack>
  );
  return (
    <Box bgGradient="to-b" gradientFrom="navy.900" gradientTo="navy.700" flex="1" px="4" py={{ base: '6', md: '12' }}>
      {aside ? (
        <Grid maxW="6xl" mx="auto" gap={{ base: '8', lg: '12' }} templateColumns={{ base: '1fr', lg: 'minmax(0, 1fr) 28rem' }} alignItems="start">
          <Box order={{ base: asideAfter ? 2 : 1, lg: 1 }} minW="0">
            {aside}
          </Box>
          <Box order={{ base: asideAfter ? 1 : 2, lg: 2 }} minW="0">
            {form}
          </Box>
        </Grid>
      ) : (
        form
      )}
    </Box>
  );
}
