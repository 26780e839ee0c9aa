import { useEffect, useState } from 'react';

/**
 * True once the pointer has not moved for `ms` (and from the start): a screen watched from across a room
 * hides the cursor then, and shows it again while someone moves the mouse.
 */
export function useIdle(ms: number): boolean {
  const [idle, setIdle] = useState(true);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onMove = () => {
      setIdle(false);
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => setIdle(true), ms);
    };
    window.addEventListener('pointermove', onMove);
    return () => {
      window.removeEventListener('pointermove', onMove);
      if (timer) clearTimeout(timer);
    };
  }, [ms]);
  return idle;
}
