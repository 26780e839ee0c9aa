import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { Destination, NavigationGuard } from './navigation-guard';
import { appGuard } from './app-history';

/**
 * While `active`, navigations to another screen are held and the screen is told (`holding`), to ask the
 * player: `leave()` goes on, `stay()` drops it. Closing or reloading the tab asks through the browser's
 * own question (beforeunload). `allow(to)` lets some navigations through (a save's own).
 */
export function useLeaveGuard(active: boolean, guard: NavigationGuard = appGuard) {
  const activeNow = useRef(active);
  activeNow.current = active;
  const allowed = useRef<((to: Destination) => boolean) | null>(null);
  useEffect(() => {
    guard.setQuestion((to) => activeNow.current && !(allowed.current?.(to) ?? false));
    return () => guard.setQuestion(null);
  }, [guard]);
  useEffect(() => {
    if (!active) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [active]);
  const holding = useSyncExternalStore(
    (watch) => guard.subscribe(watch),
    () => guard.isHolding(),
  );
  return {
    holding,
    leave: () => guard.proceed(),
    stay: () => guard.cancel(),
    /** Lets every navigation through from now on (the screen's own, after a save). */
    release: () => {
      allowed.current = () => true;
    },
  };
}
