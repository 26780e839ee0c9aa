import { Badge, Button, Heading, Stack, Text } from '@chakra-ui/react';
import { Card, Page } from '../components/page';
import { JsonBlock, KeyValues, TokenSummary } from '../components/token-summary';
import { errorMessage, trpc } from '../lib/trpc';

export function AuthTestPage() {
  const test = trpc.auth.authTest.useQuery(undefined, { retry: false });
  return (
    <Page title="Authentication Test" subtitle="Checks that this browser's session reaches the server.">
      <Stack gap="5">
        <Card as="section" aria-labelledby="client-h">
          <Heading as="h2" id="client-h" size="md" mb="3">
            This browser
          </Heading>
          <TokenSummary />
        </Card>
        <Card as="section" aria-labelledby="server-h">
          <Stack direction="row" justify="space-between" align="center" mb="3">
            <Heading as="h2" id="server-h" size="md">
              Backend analysis
            </Heading>
            <Button size="sm" variant="outline" onClick={() => void test.refetch()} loading={test.isFetching}>
              Run again
            </Button>
          </Stack>
          {test.isError && <Text color="red.600" role="alert">{errorMessage(test.error, 'Authentication test failed')}</Text>}
          {test.data && (
            <Stack gap="3">
              <Badge alignSelf="flex-start" colorPalette={test.data.success ? 'green' : 'red'} size="lg">
                {test.data.success ? 'Success' : 'Failed'}
              </Badge>
              <KeyValues
                rows={[
                  ['Message', test.data.message],
                  ['User id', test.data.user_id],
                  ['E-mail', test.data.email ?? '—'],
                  ['Token length', String(test.data.token_info.length)],
                  ['Token preview', test.data.token_info.preview],
                  ['Expires in', test.data.token_info.expires_in_seconds === null ? '—' : `${test.data.token_info.expires_in_seconds} s`],
                ]}
              />
              <JsonBlock label="Request headers seen by the server" value={test.data.headers} />
            </Stack>
          )}
        </Card>
      </Stack>
    </Page>
  );
}
