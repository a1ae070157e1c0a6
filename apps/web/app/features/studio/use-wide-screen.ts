import { useEffect, useState } from 'react';

/** From this width the result's details start open; on a phone they start folded. */
export const WIDE_SCREEN = '(min-width: 640px)';

/** Whether the screen is wide (WIDE_SCREEN), following the window as it changes. */
export function useWideScreen(): boolean {
  const [wide, setWide] = useState(() => typeof window !== 'undefined' && window.matchMedia(WIDE_SCREEN).matches);
  useEffect(() => {
    const query = window.matchMedia(WIDE_SCREEN);
    const follow = () => setWide(query.matches);
    follow();
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);
  return wide;
}
