import { errorKind } from './trpc';
import { api, pushSupported, type PushState } from './push';

/*
 * Switching this device on ("Tell me when my picks go"): apart from push.ts, which the app's shell loads, so
 * only the pages with the switch carry it.
 */

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
  // The permission prompt waits on the person, as long as they like; everything after it on machines.
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'blocked' : 'off';
  const signal = AbortSignal.timeout(PUSH_ANSWER_MS);
  const registration = await within(signal, navigator.serviceWorker.ready);
  const { public_key } = await within(signal, api().push.publicKey.query(undefined, { signal }));
  const fresh = () => within(signal, registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(public_key) }));
  const subscription = (await within(signal, registration.pushManager.getSubscription())) ?? (await fresh());
  try {
    await within(signal, store(subscription, delaySeconds, signal));
  } catch (error) {
    if (errorKind(error) !== 'CONFLICT') throw error;
    await subscription.unsubscribe();
    await within(signal, store(await fresh(), delaySeconds, signal));
  }
  return 'on';
}

/**
 * How long switching on may take once the browser's permission is given: the browser's push service
 * (PushManager.subscribe) and the server together. Past it the switch gives up and says so (PushServiceSilent).
 */
export const PUSH_ANSWER_MS = 10_000;

/** Switching on got no answer within PUSH_ANSWER_MS (the push service, or the server storing the device). */
export class PushServiceSilent extends Error {
  constructor() {
    super('The push service did not answer in time');
    this.name = 'PushServiceSilent';
  }
}

/**
 * `promise`, or PushServiceSilent once `signal` aborts. A subscribe that answers later leaves a subscription
 * the server does not know: the switch shows off, and the next tick reuses it (getSubscription).
 */
function within<T>(signal: AbortSignal, promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const give = () => reject(new PushServiceSilent());
    if (signal.aborted) return give();
    signal.addEventListener('abort', give, { once: true });
    // A call given the signal (the server's) fails on its own when it aborts: that is the silence too.
    promise.then(resolve, (error: unknown) => reject(signal.aborted ? new PushServiceSilent() : error)).finally(() => signal.removeEventListener('abort', give));
  });
}

function store(subscription: PushSubscription, delaySeconds: number, signal?: AbortSignal) {
  const json = subscription.toJSON();
  return api().push.subscribe.mutate(
    {
      endpoint: subscription.endpoint,
      keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
      delay_seconds: delaySeconds,
    },
    { signal },
  );
}

