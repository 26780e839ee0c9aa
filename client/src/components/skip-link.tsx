import { chakra } from '@chakra-ui/react';

export const MAIN_ID = 'main';

const Anchor = chakra('a');

/**
 * 'Skip to main content': the first stop of the keyboard, hidden until focused. It moves focus into the
 * page itself (the main landmark can take focus) rather than changing the URL's hash, which the router owns.
 */
export function SkipLink() {
  return (
    <Anchor
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        const main = document.getElementById(MAIN_ID);
        if (!main) return;
        event.preventDefault();
        main.focus();
        main.scrollIntoView();
      }}
      position="absolute"
      top="2"
      insetStart="2"
      zIndex="skipNav"
      px="4"
      py="2"
      borderRadius="md"
      bg="gold.400"
      color="navy.900"
      fontWeight="bold"
      transform="translateY(-150%)"
      _focus={{ transform: 'translateY(0)', outline: '3px solid', outlineColor: 'white', outlineOffset: '2px' }}
    >
      Skip to main content
    </Anchor>
  );
}
