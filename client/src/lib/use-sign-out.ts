import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/auth-context';

/** Ends the session, forgets every cached answer (they belong to the old user), goes to /sign-in. */
export function useSignOut() {
  const { signOut } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    await signOut();
    queryClient.clear();
    navigate('/sign-in', { replace: true });
  };
}
