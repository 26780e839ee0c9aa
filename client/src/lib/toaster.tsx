import { lazy, Suspense, useSyncExternalStore, type ComponentType } from 'react';
import type * as ToastViewModule from './toast-view';

/*
 * notify() for every screen, without Chakra's toaster in the initial bundle: the first call loads the
 * toast view (lib/toast-view.tsx), mounts it and shows the toast once it is mounted; later calls show at
 * once. Calls made meanwhile are shown in order (each replaces the previous, as always).
 */

type ToastType = 'success' | 'error' | 'info' | 'warning';
type ViewModule = typeof ToastViewModule;

let wanted = false;
const listeners = new Set<() => void>();
let markMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => (markMounted = resolve));
let view: Promise<ViewModule> | null = null;

function loadView(): Promise<ViewModule> {
  if (!view) {
    // A failed load (offline) is tried again by the next notify().
    view = import('./toast-view').catch((error: unknown) => {
      view = null;
      throw error;
    });
    wanted = true;
    for (const listener of listeners) listener();
  }
  return view;
}

// Mounted by AppToaster once a toast is wanted; a view that cannot load renders nothing, never an error.
const ToastView = lazy(async (): Promise<{ default: ComponentType<{ onMounted: () => void }> }> => {
  try {
    return { default: (await loadView()).ToastView };
  } catch {
    return { default: () => null };
  }
});

let last = { key: '', at: 0 };

function show({ toaster }: ViewModule, type: ToastType, title: string, description?: string) {
  // The same news twice in a row (the operator's own change, then its live echo) is shown once.
  const key = `${title}\n${description ?? ''}`;
  const now = Date.now();
  if (key === last.key && now - last.at < 3000 && toaster.getVisibleToasts().length > 0) return;
  last = { key, at: now };
  // Replace rather than queue: one toast at a time, the latest one.
  toaster.remove();
  toaster.create({ type, title, description });
}

let queue = Promise.resolve();

export function notify(type: ToastType, title: string, description?: string) {
  const loaded = loadView();
  queue = queue
    .then(async () => {
      const module = await loaded;
      await mounted;
      show(module, type, title, description);
    })
    .catch(() => undefined); // the chunk failed to load (offline): the news is on the screen anyway
}

/** Where the toasts appear: nothing until the first notify(). */
export function AppToaster() {
  const show = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
  );
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <ToastView onMounted={markMounted} />
    </Suspense>
  );
}
