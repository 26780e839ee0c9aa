import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Each test starts on an empty screen and an empty device (unsaved picks, the viewing delay).
afterEach(() => {
  cleanup();
  localStorage.clear();
});

// The toasts live in one store for the page (lib/toast-view.tsx): a test starts with none on screen.
afterEach(async () => {
  const { toaster } = await import('../lib/toast-view');
  toaster.remove();
});
