import { type RefObject, useLayoutEffect } from 'react';

/**
 * Adopts what a visitor typed (or the browser autofilled) into a prerendered field before the
 * page's script took over. React keeps that text in the input when it hydrates, but not in the
 * state behind `value`: the next render would erase it, and a submit would read an empty field.
 * Read once, on mount, before the browser paints.
 */
export function useTypedBeforeHydration(
  ref: RefObject<HTMLInputElement | null>,
  value: string,
  onChange: (value: string) => void,
): void {
  useLayoutEffect(() => {
    const typed = ref.current?.value;
    if (typed !== undefined && typed !== value) onChange(typed);
    // Only the first render can meet text from before hydration; later ones own the value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
