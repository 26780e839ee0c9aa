import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useNavigate } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { trpc } from '../lib/trpc';
import { RulesList } from './rules';

/** 'Rules of the Game' on a first login (is_first_login true or null); only its button closes it. */
export function FirstLoginModal() {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const status = trpc.users.status.useQuery(undefined, { staleTime: STALE_TIMES.userStatus });
  const done = trpc.users.markFirstLoginDone.useMutation({
    onSuccess(data) {
      utils.users.status.setData(undefined, data);
      navigate('/my-picks');
    },
  });
  const open = status.isSuccess && status.data.is_first_login !== false;
  return (
    <Dialog.Root open={open} closeOnInteractOutside={false} closeOnEscape={false} placement="center" size={{ base: 'full', sm: 'md' }} role="alertdialog">
      <Portal>
        <Dialog.Backdrop bg="blackAlpha.700" />
        <Dialog.Positioner>
          <Dialog.Content borderRadius={{ base: '0', sm: 'xl' }} overflow="hidden">
            <Dialog.Header bg="navy.900" color="white" py="5">
              <Dialog.Title fontSize="2xl" fontWeight="black" textTransform="uppercase" letterSpacing="wide">
                Rules of the Game
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body py="5">
              <Text mb="4" fontWeight="semibold" color="navy.800">
                Pick the players you think will be drafted in the 1st Round. No mistakes allowed.
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
