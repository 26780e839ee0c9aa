/**
 * Registers the service worker (/sw.js, src/service-worker.ts) in a production build only: the Vite dev
 * server has no /sw.js, and a worker there would serve stale modules. After the page's own load, so
 * precaching the build never competes with the first screen.
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => console.warn('Service worker not registered', error));
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
