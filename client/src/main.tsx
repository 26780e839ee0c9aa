import { StrictMode } from 'react';
// The headings' display face, self-hosted: one weight, latin only (~22 KB woff2, fetched with the first heading).
import '@fontsource/barlow-condensed/latin-800.css';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import type { ClientConfig } from './auth/auth-provider';
import { registerServiceWorker } from './lib/register-service-worker';
import { startConnectivity } from './lib/connectivity';
import { createQueryClient } from './lib/query-client';
import { keepQueries, restoreQueries } from './lib/persisted-queries';

/** The last answer of /api/client-config, for a start offline (the worker never keeps API answers). */
const CONFIG_KEY = 'fr_client_config';

/** Which identity provider this installation uses decides the auth layer, so ask before rendering. */
async function loadConfig(): Promise<ClientConfig> {
  try {
    const res = await fetch('/api/client-config');
    if (res.ok) {
      const config = (await res.json()) as ClientConfig;
      localStorage.setItem(CONFIG_KEY, JSON.stringify(config));
      return config;
    }
  } catch {
    // No answer (offline): the configuration seen last, else the built-in provider.
    const remembered = localStorage.getItem(CONFIG_KEY);
    if (remembered) return JSON.parse(remembered) as ClientConfig;
  }
  return { auth_provider: 'local', clerk_publishable_key: null };
}

startConnectivity();
const config = await loadConfig();
// The query cache, with the answers this device kept for when the network gives none (lib/persisted-queries.ts).
const queryClient = createQueryClient();
restoreQueries(queryClient);
keepQueries(queryClient);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App config={config} queryClient={queryClient} />
  </StrictMode>,
);
registerServiceWorker();
