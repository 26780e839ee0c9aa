import { Text } from '@chakra-ui/react';
import { AuthDiagnosticsPage, JsonBlock, KeyValues, Verdict } from '../components/token-summary';
import { errorMessage, trpc } from '../lib/trpc';

export function AuthDebugPage() {
  const debug = trpc.auth.jwtDebug.useQuery(undefined, { retry: false });
  return (
    <AuthDiagnosticsPage
      title="Authentication Debug"
      subtitle="The session token's header and claims, as the server reads them."
      headingId="jwt-h"
      heading="Backend token analysis"
      error={debug.isError && errorMessage(debug.error, 'Token analysis failed')}
    >
      {debug.isPending && <Text color="gray.600">Analysing...</Text>}
      {debug.data && (
        <Verdict ok={debug.data.valid} label={debug.data.valid ? 'Valid token' : 'Invalid token'}>
          <KeyValues
            rows={[
              ['Provider', debug.data.provider],
              ['Token length', String(debug.data.token_length)],
              ['Token preview', debug.data.token_preview],
            ]}
          />
          <JsonBlock label="Token header" value={debug.data.header} />
          <JsonBlock label="Token claims" value={debug.data.claims} />
        </Verdict>
      )}
    </AuthDiagnosticsPage>
  );
}
