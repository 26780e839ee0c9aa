import { useState } from 'react';
import { Button, type ButtonProps } from '@chakra-ui/react';
import { useSignOut } from '../lib/use-sign-out';

/** Signs out (see useSignOut), showing a spinner until the sign-in page opens. */
export function SignOutButton(props: ButtonProps) {
  const signOut = useSignOut();
  const [signingOut, setSigningOut] = useState(false);
  return (
    <Button
      variant="outline"
      colorPalette="red"
      loading={signingOut}
      onClick={() => {
        setSigningOut(true);
        void signOut();
      }}
      {...props}
    />
  );
}
