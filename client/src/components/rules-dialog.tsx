import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useLocation, useNavigate } from 'react-router-dom';
import { trpc } from '../lib/trpc';
import { RulesList } from './rules';

/**
 * A group's page (an invitee lands there) or the operator's console: the rules close onto it instead of
 * sending them to My Picks.
 */
export const staysAfterRules = (pathname: string) => /^\/groups\/\d+(\/picks)?\/?$/.test(pathname) || /^\/admin\/?$/.test(pathname);

/**
 * The first-login 'Rules of the Game' dialog; only its button closes it. A lazy chunk (Chakra's dialog
 * machinery is ~10 KB compressed) that components/first-login-modal.tsx loads only for a first login.
 * Full screen on phones; a centred card from `sm` up (Chakra's `full` size, used responsively, kept its
 * full height and zero margin at every width, so the card stuck to the top of a desktop screen).
 */
export function RulesDialog({ open }: { open: boolean }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const done = trpc.users.markFirstLoginDone.useMutation({
    onSuccess(data) {
      utils.users.status.setData(undefined, data);
      if (!staysAfterRules(pathname)) navigate('/my-picks');
    },
  });
  return (
    <Dialog.Root open={open} closeOnInteractOutside={false} closeOnEscape={false} placement="center" size="md" role="alertdialog">
      <Portal>
        <Dialog.Backdrop bg="blackAlpha.700" />
        <Dialog.Positioner>
          <Dialog.Content
            borderRadius={{ base: '0', sm: 'xl' }}
            overflow="hidden"
            maxW={{ base: '100dvw', sm: 'lg' }}
            minH={{ base: '100dvh', sm: 'auto' }}
            my={{ base: '0', sm: 'auto' }}
          >
            <Dialog.Header bg="navy.900" color="white" py="5">
              <Dialog.Title fontSize="2xl" fontWeight="black" textTransform="uppercase" letterSpacing="wide">
                Rules of the Game
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body py="5">
              <Text mb="4" fontWeight="semibold" color="navy.800">
                Pick the players you think will be drafted in round one. No mistakes allowed.
              </Text>
              <RulesList />
            </Dialog.Body>
            <Dialog.Footer>
              <Button width="full" size="lg" bg="gold.400" color="navy.900" fontWeight="black" _hover={{ bg: 'gold.500' }} loading={done.isPending} onClick={() => done.mutate()}>
                Play First Round
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
