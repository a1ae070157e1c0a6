import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useRefreshWhileVisible } from './use-refresh-while-visible';

// The dashboard's live figure refreshes on its own while the page is visible, and only then.

const INTERVAL = 30_000;
let visibility: DocumentVisibilityState = 'visible';

function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

/** Moves the clock and lets the refreshes' promises settle. */
async function advance(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
}

beforeEach(() => {
  vi.useFakeTimers();
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('useRefreshWhileVisible', () => {
  it('refreshes every interval while the page is visible, the first a whole interval after the page opens', async () => {
    const refresh = vi.fn();
    renderHook(() => useRefreshWhileVisible(refresh, INTERVAL));
    await advance(INTERVAL - 1);
    expect(refresh).not.toHaveBeenCalled();
    await advance(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    await advance(2 * INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('stops while the page is hidden, and refreshes at once on coming back to a stale figure', async () => {
    const refresh = vi.fn();
    renderHook(() => useRefreshWhileVisible(refresh, INTERVAL));
    await advance(INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(1);
    setVisibility('hidden');
    await advance(10 * INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(1);
    setVisibility('visible');
    await advance(0);
    expect(refresh).toHaveBeenCalledTimes(2);
    await advance(INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('does not refresh on coming back when the figure is still fresh, nor twice for two events', async () => {
    const refresh = vi.fn();
    renderHook(() => useRefreshWhileVisible(refresh, INTERVAL));
    await advance(INTERVAL / 3);
    setVisibility('hidden');
    setVisibility('visible');
    setVisibility('visible');
    await advance(0);
    expect(refresh).not.toHaveBeenCalled();
    // One timer, not one per event.
    await advance(INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('counts a refresh made elsewhere (the refresh button) as the last one', async () => {
    const refresh = vi.fn();
    let fetchedAt = Date.now();
    renderHook(() => useRefreshWhileVisible(refresh, INTERVAL, () => fetchedAt));
    setVisibility('hidden');
    await advance(INTERVAL);
    fetchedAt = Date.now(); // the visitor pressed "refresh" just before leaving
    setVisibility('visible');
    await advance(0);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('waits for a slow answer instead of asking again', async () => {
    let answer: () => void = () => undefined;
    const refresh = vi.fn(() => new Promise<void>((resolve) => (answer = resolve)));
    renderHook(() => useRefreshWhileVisible(refresh, INTERVAL));
    await advance(5 * INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(1);
    answer();
    await advance(INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('stops when the component goes away', async () => {
    const refresh = vi.fn();
    const { unmount } = renderHook(() => useRefreshWhileVisible(refresh, INTERVAL));
    unmount();
    await advance(5 * INTERVAL);
    setVisibility('visible');
    await advance(INTERVAL);
    expect(refresh).not.toHaveBeenCalled();
  });
});
