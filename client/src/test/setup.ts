import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Each test starts on an empty screen and an empty device (unsaved picks, the viewing delay).
afterEach(() => {
  cleanup();
  localStorage.clear();
});
