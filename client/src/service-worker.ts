/**
 * The service worker (served as /sw.js, built by client/vite-service-worker.ts, which fills in the two
 * constants below): a reopened app starts from its cache, and offline it still opens (docs/web-app.md,
 * "Installable and offline").
 * - Navigations: the network first (the server's page always names the newest build), the cached shell
 *   (index.html) when there is no answer at all.
 * - Hashed build assets (/assets/…): the cache first; a name never changes its content. Matched whatever
 *   the request's headers: the server answers every file with `Vary: Origin` (its CORS rule), and a module
 *   script is asked for with an Origin header the precache's requests lack, so a match that honoured Vary
 *   would never find a lazy page's chunk offline.
 * - Everything else, the API above all (/api, /trpc and its live stream, /idp, /s/): never touched, never
 *   cached. Where the browser knows static routes, those requests do not even wake the worker.
 * A new build has a new version: its worker takes over at once and deletes the older caches.
 */
import { registerPushHandlers } from './service-worker-push';

declare const self: ServiceWorkerGlobalScope;
/** The shell and every file under /assets of this build (written in at build time). */
declare const __PRECACHE__: string[];
/** Derived from the build's file names and its index.html: a new build, a new cache. */
declare const __BUILD_VERSION__: string;

const CACHE_PREFIX = 'first-round-';
const CACHE = `${CACHE_PREFIX}${__BUILD_VERSION__}`;
const SHELL = '/index.html';
/** Paths whose answers are the server's alone: the worker never answers them. */
const NETWORK_ONLY = ['/api/', '/trpc/', '/idp/', '/s/'];

/** The Static Routing API (Chromium 123+): not yet in TypeScript's library. */
interface RouterRule {
  condition: { urlPattern: string };
  source: 'network';
}
type InstallEventWithRoutes = ExtendableEvent & { addRoutes?: (rules: RouterRule[]) => Promise<void> };

self.addEventListener('install', (event: InstallEventWithRoutes) => {
  // API requests go straight to the network, without starting the worker (where the browser can).
  event.waitUntil(
    Promise.all([
      // A browser that knows the API but refuses a rule still installs the worker: the fetch handler covers it.
      Promise.resolve()
        .then(() => event.addRoutes?.(NETWORK_ONLY.map((prefix) => ({ condition: { urlPattern: `${prefix}*` }, source: 'network' as const }))))
        .catch(() => undefined),
      caches.open(CACHE).then((cache) => cache.addAll(__PRECACHE__)),
    ]).then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith(CACHE_PREFIX) && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

/** The shell from the cache when the network gives no answer (an HTTP error is an answer, passed on). */
async function navigate(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await caches.match(SHELL, { cacheName: CACHE, ignoreVary: true });
    if (shell) return shell;
    throw error;
  }
}

async function hashedAsset(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NETWORK_ONLY.some((prefix) => url.pathname.startsWith(prefix))) return;
  if (request.mode === 'navigate') event.respondWith(navigate(request));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(hashedAsset(request));
});

// ---- Push notifications: registered here, handled in service-worker-push.ts. ----
registerPushHandlers(self);
