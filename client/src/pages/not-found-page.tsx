import { Heading, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { PrimaryButton } from '../components/buttons';
import { useDocumentTitle } from '../lib/document-title';

export function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <Stack align="center" textAlign="center" gap="4" px="4" py="20">
      <Text fontSize="6xl" fontWeight="black" color="navy.400" lineHeight="1" aria-hidden>
        404
      </Text>
      <Heading as="h1" size="3xl" fontWeight="black" color="navy.900">
        Page Not Found
      </Heading>
      <Text color="gray.600">That play isn't in the playbook.</Text>
      <PrimaryButton asChild>
        <Link to="/">Go back home</Link>
      </PrimaryButton>
    </Stack>
  );
}
