import { useEffect } from 'react';
import { createToaster, Toaster as ChakraToaster, Toast, Portal, Stack } from '@chakra-ui/react';
import { TOAST_DURATION_MS, TOAST_REMOVE_DELAY_MS } from '@first-round/shared/constants';

/*
 * The toasts themselves (Chakra's toaster and its machinery, ~17 KB compressed): a lazy chunk that
 * lib/toaster.tsx loads on the first notify(), so a first load that shows no toast never downloads it.
 */

/** One toast at a time (a new one replaces the current), 5 s, removed 3 s after dismissal, F8 focuses. */
export const toaster = createToaster({
  // Top right, below the header: the bottom of the screen holds the sticky Save / Edit buttons.
  placement: 'top-end',
  offsets: { top: 'var(--fr-toast-top, 76px)', right: '16px', bottom: '16px', left: '16px' },
  max: 1,
  duration: TOAST_DURATION_MS,
  removeDelay: TOAST_REMOVE_DELAY_MS,
  hotkey: ['F8'],
  pauseOnPageIdle: true,
});

export function ToastView({ onMounted }: { onMounted: () => void }) {
  useEffect(onMounted, [onMounted]);
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }}>
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            <Toast.CloseTrigger aria-label="Dismiss notification" />
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
