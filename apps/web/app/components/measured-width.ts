import { type RefObject, useLayoutEffect, useRef, useState } from 'react';

/**
 * The width of an element, followed as it changes; null until measured. It is measured in the
 * commit, before the first paint, so that a drawing sized by it (the charts) is drawn once, at its
 * width, not at a guess and then again (reading the width lays the page out a little earlier; the
 * browser does not lay it out again). Where nothing is laid out (tests), `fallback`.
 */
export function useMeasuredWidth(fallback: number): [RefObject<HTMLDivElement | null>, number | null] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth > 0 ? element.clientWidth : fallback);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [fallback]);
  return [ref, width];
}
