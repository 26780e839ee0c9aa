import { Center, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export function FullPageMessage({ children, spinner = true }: { children: ReactNode; spinner?: boolean }) {
  return (
    <Center minH="60vh" px="4">
      <Stack align="center" gap="3" role="status">
        {spinner && <Spinner color="navy.600" size="lg" />}
        <Text color="gray.600" fontWeight="medium">
          {children}
        </Text>
      </Stack>
    </Center>
  );
}
