import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../lib/document-title';

/** A page's frame: the title (one h1 per page), an optional subtitle, then the content. */
export function Page({ title, subtitle, before, children, maxW = '3xl' }: { title: ReactNode; subtitle?: ReactNode; before?: ReactNode; children?: ReactNode; maxW?: string }) {
  return (
    <Box width="100%" maxW={maxW} mx="auto" px={{ base: '4', md: '6' }} py={{ base: '5', md: '8' }}>
      <Stack gap="1" mb="5">
        {before}
        <PageTitle title={title} subtitle={subtitle} />
      </Stack>
      {children}
    </Box>
  );
}

/** The page's one h1 and, under it, its subtitle. */
export function PageTitle({ title, subtitle }: { title: ReactNode; subtitle?: ReactNode }) {
  // The h1 is the tab's title too (a title that is not plain text leaves the route's name).
  useDocumentTitle(typeof title === 'string' ? title : null);
  return (
    <>
      <Heading as="h1" size={{ base: '3xl', md: '4xl' }} fontWeight="black" color="navy.900" letterSpacing="normal">
        {title}
      </Heading>
      {subtitle && <Text color="gray.600">{subtitle}</Text>}
    </>
  );
}

export function Card({ children, ...rest }: { children: ReactNode } & React.ComponentProps<typeof Box>) {
  return (
    <Box bg="white" borderRadius="xl" borderWidth="1px" borderColor="gray.200" boxShadow="sm" p={{ base: '4', md: '6' }} {...rest}>
      {children}
    </Box>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Box textAlign="center" py="10" px="4" color="gray.600" bg="white" borderRadius="xl" borderWidth="1px" borderStyle="dashed" borderColor="gray.300">
      {children}
    </Box>
  );
}
