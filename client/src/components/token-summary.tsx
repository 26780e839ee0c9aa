import { useEffect, useState, type ReactNode } from 'react';
import { Badge, Box, Code, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import { useAuth } from '../auth/auth-context';
import { Card, Page } from './page';

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

/**
 * An auth diagnostics page: this browser's session, then a section (`heading`, with an optional `action`
 * beside it) on what the server makes of it, opening with the check's `error` when it failed.
 */
export function AuthDiagnosticsPage({
  title,
  subtitle,
  headingId,
  heading,
  action,
  error,
  children,
}: {
  title: string;
  subtitle: string;
  headingId: string;
  heading: string;
  action?: ReactNode;
  error?: string | false;
  children: ReactNode;
}) {
  const serverHeading = (
    <Heading as="h2" id={headingId} size="md" mb={action ? undefined : '3'}>
      {heading}
    </Heading>
  );
  return (
    <Page title={title} subtitle={subtitle}>
      <Stack gap="5">
        <Card as="section" aria-labelledby="client-h">
          <Heading as="h2" id="client-h" size="md" mb="3">
            This browser
          </Heading>
          <TokenSummary />
        </Card>
        <Card as="section" aria-labelledby={headingId}>
          {action ? (
            <Stack direction="row" justify="space-between" align="center" mb="3">
              {serverHeading}
              {action}
            </Stack>
          ) : (
            serverHeading
          )}
          {error && <Text color="red.600" role="alert">{error}</Text>}
          {children}
        </Card>
      </Stack>
    </Page>
  );
}

/** The server's verdict as a green or red badge, then its details. */
export function Verdict({ ok, label, children }: { ok: boolean; label: string; children: ReactNode }) {
  return (
    <Stack gap="3">
      <Badge alignSelf="flex-start" colorPalette={ok ? 'green' : 'red'} size="lg">
        {label}
      </Badge>
      {children}
    </Stack>
  );
}
