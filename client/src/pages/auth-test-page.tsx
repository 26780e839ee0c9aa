import { Button } from '@chakra-ui/react';
import { AuthDiagnosticsPage, JsonBlock, KeyValues, Verdict } from '../components/token-summary';
import { errorMessage, trpc } from '../lib/trpc';

export function AuthTestPage() {
  const test = trpc.auth.authTest.useQuery(undefined, { retry: false });
  return (
    <AuthDiagnosticsPage
      title="Authentication Test"
      subtitle="Checks that this browser's session reaches the server."
      headingId="server-h"
      heading="Backend analysis"
      action={
        <Button size="sm" variant="outline" onClick={() => void test.refetch()} loading={test.isFetching}>
          Run again
        </Button>
      }
      error={test.isError && errorMessage(test.error, 'Authentication test failed')}
    >
      {test.data && (
        <Verdict ok={test.data.success} label={test.data.success ? 'Success' : 'Failed'}>
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
        </Verdict>
      )}
    </AuthDiagnosticsPage>
  );
}
