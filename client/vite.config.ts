import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './vite-precompress.js';
import { serviceWorker } from './vite-service-worker.js';

// `npm run dev`: the API server listens on PORT (default 3000); Vite serves the app with hot reload and
// forwards the API paths to it.
const api = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  // The service worker is written before the precompress plugin runs, so it is compressed with the rest.
  plugins: [react(), serviceWorker(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 700 },
  server: {
    port: 5173,
    // /s/{token}: the share page is the server's own (no SPA route).
    proxy: { '/trpc': api, '/idp': api, '/api': api, '/s/': api },
  },
});
