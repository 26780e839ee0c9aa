import { Box, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { CountdownBanner } from './countdown-banner';
import { PageTitle } from './page';

/** The sign-in and sign-up frame: navy stadium backdrop, countdown, then the form card. */
export function AuthFrame({ title, tagline, children, footer }: { title: string; tagline?: string; children: ReactNode; footer: ReactNode }) {
  return (
    <Box bgGradient="to-b" gradientFrom="navy.900" gradientTo="navy.700" flex="1" px="4" py={{ base: '6', md: '12' }}>
      <Stack maxW="md" mx="auto" gap="5">
        <CountdownBanner />
        <Box bg="white" borderRadius="2xl" boxShadow="xl" p={{ base: '5', md: '8' }}>
          <Stack gap="2" mb="6" textAlign="center">
            <PageTitle title={title} subtitle={tagline} />
          </Stack>
          {children}
        </Box>
        <Box textAlign="center" color="navy.100">
          {footer}
        </Box>
      </Stack>
    </Box>
  );
}
