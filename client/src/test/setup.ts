import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Each test starts on an empty screen with nothing kept on the device (unsaved picks, a viewing delay).
afterEach(() => {
  cleanup();
  localStorage.clear();
});

// The toasts live in one store for the page (lib/toast-view.tsx): a test starts with none on screen.
afterEach(async () => {
  const { toaster } = await import('../lib/toast-view');
  toaster.remove();
});

// Waits are for conditions, bounded for a hang only: on a busy machine a re-render can take seconds.
configure({ asyncUtilTimeout: 10_000 });
