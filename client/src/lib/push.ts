import type { createTrpcClient } from './trpc';

/*
 * This device's push subscription ("Tell me when my picks go"). The auth layer hands over its tRPC client
 * (auth-provider.tsx), so helpers such as setPushDelay work outside React, for the viewing-delay setting too.
 */
type Client = ReturnType<typeof createTrpcClient>;
let client: Client | undefined;

export function bindPushClient(next: Client): void {
  client = next;
}

/** The bound tRPC client (push-enable.ts switches on with it). */
export function api(): Client {
  if (!client) throw new Error('push: no tRPC client bound yet');
  return client;
}

/** 'unsupported': no service worker or Push API here; 'blocked': the browser's permission was denied. */
export type PushState = 'unsupported' | 'blocked' | 'off' | 'on';

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** On when this device has a subscription the server knows as the caller's. */
export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  const subscription = await currentSubscription();
  if (!subscription) return 'off';
  const status = await api().push.status.query({ endpoint: subscription.endpoint });
  return status.subscribed ? 'on' : 'off';
}

/** Opts this device out (the switch, or signing out): the server forgets it, then the browser does. */
export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await api()
    .push.unsubscribe.mutate({ endpoint: subscription.endpoint })
    .catch(() => {});
  await subscription.unsubscribe();
}

/** The viewing delay ("No spoilers") for this device's notifications; nothing when it has no subscription. */
export async function setPushDelay(seconds: number): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  const state = await api().push.status.query({ endpoint: subscription.endpoint });
  if (!state.subscribed) return;
  await api().push.setDelay.mutate({ endpoint: subscription.endpoint, delay_seconds: Math.round(seconds) });
}
