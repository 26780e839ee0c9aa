import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/auth-context';
import { disablePush } from './push';

/** Ends the session (this device's push subscription first, while the caller can still remove it), forgets every cached answer (they belong to the old user), goes to /sign-in. */
export function useSignOut() {
  const { signOut } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    // A failure here must not keep the player signed in.
    await disablePush().catch(() => {});
    await signOut();
    queryClient.clear();
    navigate('/sign-in', { replace: true });
  };
}
