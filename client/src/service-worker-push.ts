/**
 * Push notifications: the service worker (service-worker.ts) calls this once, when it starts. Push handling
 * (the `push` and `notificationclick` listeners) is added here; the worker's caching knows nothing of it.
 * The server sends `{ title, body, tag, url }` (shared/src/schemas.ts, pushPayload).
 */
interface PushMessage {
  title: string;
  body: string;
  tag: string;
  url: string;
}

function readPush(data: PushMessageData | null): PushMessage | null {
  try {
    const value = data?.json() as Partial<PushMessage> | undefined;
    if (!value || typeof value.title !== 'string') return null;
    return { title: value.title, body: value.body ?? '', tag: value.tag ?? 'first-round', url: value.url ?? '/' };
  } catch {
    return null;
  }
}

/** Only paths of this app: a push can never send a tap elsewhere. */
function appUrl(sw: ServiceWorkerGlobalScope, url: unknown): string {
  const target = new URL(typeof url === 'string' ? url : '/', sw.location.origin);
  return target.origin === sw.location.origin ? target.href : sw.location.origin + '/';
}

export function registerPushHandlers(sw: ServiceWorkerGlobalScope): void {
  // Notifications are shown one after another in the order their pushes came: showing one loads its icon
  // first, so two shown at once could land out of order, and the earlier pick would replace the later one
  // under their shared tag.
  let shown: Promise<unknown> = Promise.resolve();
  sw.addEventListener('push', (event) => {
    const message = readPush(event.data);
    if (!message) return;
    // One tag for every pick: the latest replaces the earlier one (renotify: the phone still buzzes).
    const show = () =>
      sw.registration.showNotification(message.title, {
        body: message.body,
        tag: message.tag,
        renotify: true,
        icon: '/icons/icon-192.png',
        data: { url: message.url },
      } as NotificationOptions);
    shown = shown.then(show, show);
    event.waitUntil(shown);
  });

  sw.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const url = appUrl(sw, (event.notification.data as { url?: unknown } | null)?.url);
    event.waitUntil(
      (async () => {
        const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
        // An open window of the app is reused: focused and sent to the page.
        const open = windows.find((client) => new URL(client.url).origin === sw.location.origin);
        if (open) {
          // Sent to the page first, then focused: focusing is the browser's to allow (a tap does), and a
          // window left where it was would be the wrong page either way.
          const navigated = (await open.navigate(url)) ?? open;
          await navigated.focus().catch(() => undefined);
          return;
        }
        await sw.clients.openWindow(url);
      })(),
    );
  });
}
