import { useEffect, useSyncExternalStore } from 'react';

// "Never in the middle of an analysis": while a page of the app holds updates (an analysis running, a
// result not saved yet), the new version's notice waits. A reload then would lose the visitor's work.

let holds = 0;
const listeners = new Set<() => void>();

function changed(by: number) {
  holds += by;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Holds the update notice back while `active` (and this component is shown). */
export function useHoldAppUpdate(active: boolean) {
  useEffect(() => {
    if (!active) return;
    changed(1);
    return () => changed(-1);
  }, [active]);
}

/** Whether a page holds the update notice back now. */
export function useAppUpdateHeld(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => holds > 0,
    () => false,
  );
}
