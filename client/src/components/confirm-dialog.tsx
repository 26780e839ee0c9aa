import type { ReactNode } from 'react';
import { Button, Dialog, Portal, Text } from '@chakra-ui/react';

/** A yes/no question before an operator change: Cancel, or the named action (red when destructive). */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  destructive = false,
  loading = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  destructive?: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && onClose()} role="alertdialog" placement="center" size={{ base: 'xs', sm: 'md' }}>
      <Portal>
        <Dialog.Backdrop bg="blackAlpha.600" />
        <Dialog.Positioner px="3">
          <Dialog.Content borderRadius="xl">
            <Dialog.Header>
              <Dialog.Title fontSize="xl" fontWeight="black" color="navy.900">
                {title}
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text as="div" color="gray.700">
                {children}
              </Text>
            </Dialog.Body>
            <Dialog.Footer gap="3">
              <Button variant="outline" onClick={onClose} disabled={loading}>
                Cancel
              </Button>
              <Button
                bg={destructive ? 'red.600' : 'navy.900'}
                color="white"
                fontWeight="bold"
                _hover={{ bg: destructive ? 'red.700' : 'navy.700' }}
                loading={loading}
                onClick={onConfirm}
              >
                {confirmLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
