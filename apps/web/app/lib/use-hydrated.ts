import { useEffect, useState } from 'react';

/**
 * False on the prerendered page and while React hydrates it; true once the component's script has
 * taken over (its handlers work). Controls that would do nothing before then say so.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
