import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 700 },
  server: {
    port: 5173,
    proxy: { '/trpc': 'http://localhost:3000', '/idp': 'http://localhost:3000', '/api': 'http://localhost:3000' },
  },
});
