import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Box, chakra } from '@chakra-ui/react';

const TipButton = chakra('button');

/**
 * A short explanation behind a small button: it opens on hover, on focus and on a tap (a tooltip alone
 * would not open on a phone), and closes on Escape, on a tap elsewhere or when the pointer leaves.
 * The button names what it explains and points at the text (aria-describedby), so a screen reader reads
 * the explanation with it. Its label must begin with the visible trigger text (WCAG 2.5.3, "label in
 * name": a voice-control user says what they see). Built by hand: Chakra's Popover would add its styles to the first load.
 */
export function InfoTip({ label, children, trigger }: { label: string; children: ReactNode; trigger: ReactNode }) {
  // Open while a mouse rests on it, while it has the keyboard's focus, or after a click or tap until the
  // next one (a tap also sends emulated mouse events, so only a real mouse counts as hovering).
  const [hover, setHover] = useState(false);
  const [keyboard, setKeyboard] = useState(false);
  const [pinned, setPinned] = useState(false);
  const open = hover || keyboard || pinned;
  const id = useId();
  const root = useRef<HTMLSpanElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  // The explanation opens under its trigger, moved left as far as it must to stay inside the viewport
  // (a trigger at the right of a phone's screen would push it off the edge).
  const [shift, setShift] = useState(0);
  useLayoutEffect(() => {
    if (!open || !tip.current || !root.current) return setShift(0);
    const left = root.current.getBoundingClientRect().left;
    const width = tip.current.getBoundingClientRect().width;
    const room = document.documentElement.clientWidth - 8;
    setShift(Math.min(0, room - (left + width)) - Math.min(0, left - 8));
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const close = () => {
      setHover(false);
      setKeyboard(false);
      setPinned(false);
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
    const onPointer = (e: PointerEvent) => !root.current?.contains(e.target as Node) && close();
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);
  const isMouse = (e: React.PointerEvent) => e.pointerType === 'mouse';
  return (
    <Box
      as="span"
      ref={root}
      position="relative"
      display="inline-flex"
      onPointerEnter={(e) => isMouse(e) && setHover(true)}
      onPointerLeave={(e) => isMouse(e) && setHover(false)}
    >
      <TipButton
        type="button"
        aria-label={label}
        aria-expanded={open}
        aria-describedby={id}
        onClick={() => setPinned((p) => !p)}
        onFocus={(e) => setKeyboard(e.currentTarget.matches(':focus-visible'))}
        onBlur={() => {
          setKeyboard(false);
          setPinned(false);
        }}
        display="inline-flex"
        alignItems="center"
        gap="1"
        minH="6"
        px="1"
        borderRadius="md"
        color="navy.700"
        fontWeight="semibold"
        textDecoration="underline dotted"
        textUnderlineOffset="3px"
        cursor="help"
        _focusVisible={{ outline: '3px solid', outlineColor: 'gold.400' }}
      >
        {trigger}
      </TipButton>
      <Box
        ref={tip}
        id={id}
        role="tooltip"
        hidden={!open}
        position="absolute"
        top="100%"
        left={`${shift}px`}
        mt="1"
        zIndex="popover"
        w="72"
        maxW="calc(100vw - 2rem)"
        bg="navy.900"
        color="white"
        fontSize="sm"
        fontWeight="normal"
        lineHeight="short"
        px="3"
        py="2"
        borderRadius="md"
        boxShadow="lg"
        textTransform="none"
        letterSpacing="normal"
      >
        {children}
      </Box>
    </Box>
  );
}
