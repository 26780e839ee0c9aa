import { useEffect } from 'react';

/**
 * Keeps the screen awake while the calling screen is mounted (the Screen Wake Lock API, where the browser
 * has it). The browser lets the lock go whenever the tab is hidden, so it is asked for again each time the
 * tab comes back into view. A refusal (no secure context, low battery, a browser without the API) leaves
 * the screen to its own settings: nothing to show for it.
 */
export function useWakeLock() {
  useEffect(() => {
    if (!('wakeLock' in navigator)) return;
    let sentinel: WakeLockSentinel | null = null;
    let gone = false;
    const request = async () => {
      if (document.visibilityState !== 'visible') return;
      try {
        const lock = await navigator.wakeLock.request('screen');
        if (gone) void lock.release();
        else sentinel = lock;
      } catch {
        // Refused: the screen may dim by its own settings.
      }
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') void request();
    };
    document.addEventListener('visibilitychange', onVisible);
    void request();
    return () => {
      gone = true;
      document.removeEventListener('visibilitychange', onVisible);
      void sentinel?.release().catch(() => undefined);
    };
  }, []);
}
