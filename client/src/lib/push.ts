import { errorKind, type createTrpcClient } from './trpc';

/*
 * This device's push subscription ("Tell me when my picks go"). The auth layer hands over its tRPC client
 * (auth-provider.tsx), so helpers such as setPushDelay work outside React, for the viewing-delay setting too.
 */
type Client = ReturnType<typeof createTrpcClient>;
let client: Client | undefined;

export function bindPushClient(next: Client): void {
  client = next;
}

function api(): Client {
  if (!client) throw new Error('push: no tRPC client bound yet');
  return client;
}

/** 'unsupported': no service worker or Push API here; 'blocked': the browser's permission was denied. */
export type PushState = 'unsupported' | 'blocked' | 'off' | 'on';

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function currentSubscription(): Promise<PushSubscription | null> {
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

function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (value.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/**
 * Opts this device in. Asks the browser's permission here, so only on the player's click; answers the state
 * after (blocked when they said no). A subscription the server says is another player's (they used this
 * browser and did not switch notifications off) is replaced by a new one, with an endpoint of its own: that
 * player's stops working (its push service answers "gone" and the server forgets it), as it would have had
 * the browser been given to the new player. A refusal the new one meets too is thrown, with the server's words.
 */
export async function enablePush(delaySeconds = 0): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'blocked' : 'off';
  const registration = await navigator.serviceWorker.ready;
  const { public_key } = await api().push.publicKey.query();
  const fresh = () => registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(public_key) });
  const subscription = (await registration.pushManager.getSubscription()) ?? (await fresh());
  try {
    await store(subscription, delaySeconds);
  } catch (error) {
    if (errorKind(error) !== 'CONFLICT') throw error;
    await subscription.unsubscribe();
    await store(await fresh(), delaySeconds);
  }
  return 'on';
}

function store(subscription: PushSubscription, delaySeconds: number) {
  const json = subscription.toJSON();
  return api().push.subscribe.mutate({
    endpoint: subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    delay_seconds: delaySeconds,
  });
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
