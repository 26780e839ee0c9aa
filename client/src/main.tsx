import { StrictMode } from 'react';
// The headings' display face, self-hosted: one weight, latin only (~22 KB woff2, fetched with the first heading).
import '@fontsource/barlow-condensed/latin-800.css';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import type { ClientConfig } from './auth/auth-provider';

/** Which identity provider this installation uses decides the auth layer, so ask before rendering. */
async function loadConfig(): Promise<ClientConfig> {
  try {
    const res = await fetch('/api/client-config');
    if (res.ok) return (await res.json()) as ClientConfig;
  } catch {
    // fall through to the built-in provider
  }
  return { auth_provider: 'local', clerk_publishable_key: null };
}

const config = await loadConfig();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App config={config} />
  </StrictMode>,
);
