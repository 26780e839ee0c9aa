import { useEffect, useState } from 'react';
import { Box, Code, Grid, Text } from '@chakra-ui/react';
import { useAuth } from '../auth/auth-context';

/** Never the whole token: its length and a short preview are enough to diagnose. */
export function tokenPreview(token: string): string {
  return token.length <= 24 ? `${token.slice(0, 6)}…` : `${token.slice(0, 16)}…${token.slice(-6)}`;
}

export function KeyValues({ rows }: { rows: [string, React.ReactNode][] }) {
  return (
    <Grid templateColumns={{ base: '1fr', sm: '11rem 1fr' }} columnGap="4" rowGap={{ base: '0', sm: '2' }} as="dl">
      {rows.map(([k, v]) => (
        <Box key={k} display="contents">
          <Text as="dt" fontSize="sm" color="gray.600" mt={{ base: '2', sm: '0' }}>
            {k}
          </Text>
          <Text as="dd" fontWeight="semibold" wordBreak="break-all">
            {v}
          </Text>
        </Box>
      ))}
    </Grid>
  );
}

export function TokenSummary() {
  const auth = useAuth();
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    void auth.getToken().then(setToken);
  }, [auth]);
  return (
    <KeyValues
      rows={[
        ['Signed in', auth.isSignedIn ? 'Yes' : 'No'],
        ['Provider', auth.provider],
        ['User id', <Code key="u">{auth.userId ?? '—'}</Code>],
        ['E-mail', auth.email ?? '—'],
        ['Token length', token ? String(token.length) : '—'],
        ['Token preview', <Code key="t">{token ? tokenPreview(token) : '—'}</Code>],
      ]}
    />
  );
}

export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <Box as="pre" aria-label={label} tabIndex={0} bg="navy.950" color="navy.50" p="3" borderRadius="md" fontSize="xs" overflowX="auto" maxW="100%">
      {JSON.stringify(value, null, 2)}
    </Box>
  );
}
