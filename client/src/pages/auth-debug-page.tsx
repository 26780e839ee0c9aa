import { Badge, Heading, Stack, Text } from '@chakra-ui/react';
import { Card, Page } from '../components/page';
import { JsonBlock, KeyValues, TokenSummary } from '../components/token-summary';
import { errorMessage, trpc } from '../lib/trpc';

export function AuthDebugPage() {
  const debug = trpc.auth.jwtDebug.useQuery(undefined, { retry: false });
  return (
    <Page title="Authentication Debug" subtitle="The session token's header and claims, as the server reads them.">
      <Stack gap="5">
        <Card as="section" aria-labelledby="client-h">
          <Heading as="h2" id="client-h" size="md" mb="3">
            This browser
          </Heading>
          <TokenSummary />
        </Card>
        <Card as="section" aria-labelledby="jwt-h">
          <Heading as="h2" id="jwt-h" size="md" mb="3">
            Backend token analysis
          </Heading>
          {debug.isPending && <Text color="gray.600">Analysing...</Text>}
          {debug.isError && <Text color="red.600" role="alert">{errorMessage(debug.error, 'Token analysis failed')}</Text>}
          {debug.data && (
            <Stack gap="3">
              <Badge alignSelf="flex-start" colorPalette={debug.data.valid ? 'green' : 'red'} size="lg">
                {debug.data.valid ? 'Valid token' : 'Invalid token'}
              </Badge>
              <KeyValues
                rows={[
                  ['Provider', debug.data.provider],
                  ['Token length', String(debug.data.token_length)],
                  ['Token preview', debug.data.token_preview],
                ]}
              />
              <JsonBlock label="Token header" value={debug.data.header} />
              <JsonBlock label="Token claims" value={debug.data.claims} />
            </Stack>
          )}
        </Card>
      </Stack>
    </Page>
  );
}
