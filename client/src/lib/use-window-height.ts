import { useEffect, useState } from 'react';

/** The window's inner height in px, kept current as the window is resized (a TV's screen, a tab moved between screens). */
export function useWindowHeight(): number {
  const [height, setHeight] = useState(() => window.innerHeight);
  useEffect(() => {
    const onResize = () => setHeight(window.innerHeight);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return height;
}
