import { Button } from '@chakra-ui/react';

/** The app's main call to action: navy, bold, large. Apart from form-bits.tsx, so a screen with no form loads no input. */
export function PrimaryButton(props: React.ComponentProps<typeof Button>) {
  return <Button size="lg" bg="navy.900" color="white" fontWeight="bold" _hover={{ bg: 'navy.700' }} {...props} />;
}
