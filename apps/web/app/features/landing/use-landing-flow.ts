import { useCallback, useEffect, useRef, useState } from 'react';
import type { Platform } from '@skanova/shared/landing/constants';
import { TRACKING_ID_COOKIE } from '@skanova/shared/site/constants';
import { IOS_AUTO_OPEN_MS, LANDING_COUNTDOWN_SECONDS, STORE_FALLBACK_MS } from '@skanova/shared/site/timing';
import { type LandingTarget, parseLandingPath } from '@skanova/shared/landing/landing-path';
import { siteConfig } from '../../lib/site-config';
import { detectPlatform } from './device';
import { appDeepLink, playStoreUrlWithReferrer } from './links';
import { openUrl } from './open-url';
import type * as RecordVisit from './record-visit';

const SECOND_MS = 1000;

/**
 * - `waiting`: before the automatic attempt (iOS: 300 ms; Android and desktop: the countdown);
 * - `opening`: the app was asked to open; the store follows unless the page is hidden;
 * - `desktop`: the countdown ended on a computer: QR codes instead of a redirect.
 */
export type LandingPhase = 'waiting' | 'opening' | 'desktop';

export interface LandingState {
  platform: Platform;
  target: LandingTarget;
  phase: LandingPhase;
  /** Seconds left on the Android and desktop countdown. */
  secondsLeft: number;
  trackingId: string | null;
}

/** The visitor's history state when entry.client rewrote an alias such as /ref/CODE. */
function originalPath(): string {
  const state: unknown = window.history.state;
  const stored =
    typeof state === 'object' && state !== null ? (state as { originalPath?: unknown }).originalPath : undefined;
  return typeof stored === 'string' && stored.startsWith('/')
    ? stored
    : `${window.location.pathname}${window.location.search}`;
}

/** A tracking id from an earlier visit (the server's cookie): copied if the tap comes before this visit's id. */
function earlierTrackingId(): string | null {
  const match = new RegExp(`(?:^|; )${TRACKING_ID_COOKIE}=([^;]+)`).exec(document.cookie);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

function currentTarget(): LandingTarget {
  return parseLandingPath(window.location.pathname, window.location.search) ?? { type: 'download', code: null };
}

/**
 * The landing page's behaviour (docs/product/routes-and-screens.md#referral-landing, docs/product/rules-and-constants.md#timings): records the visit, opens the app once (iOS after
 * 300 ms, Android after the countdown), falls back to the store 2.5 s later unless the page was
 * hidden meanwhile (the app opened), and on a computer ends the countdown with QR codes.
 * Returns null until mounted: the prerendered page cannot know the device or the code.
 */
export function useLandingFlow(): { state: LandingState | null; openApp: () => void } {
  const [state, setState] = useState<LandingState | null>(null);
  const stateRef = useRef<LandingState | null>(null);
  const trackingIdRef = useRef<string | null>(null);
  const trackingRef = useRef<Promise<string | null> | null>(null);
  /** The on-demand module that records the visit and copies the tracking id (loaded at mount). */
  const visitModuleRef = useRef<typeof RecordVisit | null>(null);
  const attemptedRef = useRef(false);
  const tapPendingRef = useRef(false);
  const fallbackTimerRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const update = useCallback((patch: Partial<LandingState>) => {
    setState((previous) => {
      const next = previous ? { ...previous, ...patch } : previous;
      stateRef.current = next;
      return next;
    });
  }, []);

  const storeUrl = useCallback((platform: Platform) => {
    if (platform === 'ios') return siteConfig.appStoreUrl;
    const code = stateRef.current?.target.code ?? null;
    return playStoreUrlWithReferrer(siteConfig.playStoreUrl, trackingIdRef.current, code);
  }, []);

  const attemptOpen = useCallback(() => {
    const current = stateRef.current;
    if (!current || current.platform === 'desktop') return;
    attemptedRef.current = true;
    update({ phase: 'opening' });
    openUrl(appDeepLink(siteConfig.appUrlScheme, current.target));
    clearTimeout(fallbackTimerRef.current);
    fallbackTimerRef.current = setTimeout(() => openUrl(storeUrl(current.platform)), STORE_FALLBACK_MS);
  }, [storeUrl, update]);

  // Mount: read the device and the address, record the visit, start the timers.
  useEffect(() => {
    const platform = detectPlatform(window.navigator);
    const target = currentTarget();
    trackingIdRef.current ??= earlierTrackingId();
    const initial: LandingState = {
      platform,
      target,
      phase: 'waiting',
      secondsLeft: LANDING_COUNTDOWN_SECONDS,
      trackingId: trackingIdRef.current,
    };
    stateRef.current = initial;
    setState(initial);

    // Recorded once per page (the ref survives React's development double mount). Never awaited by
    // the redirect: a failure is logged and the visitor still reaches the app or the store (docs/product/calls-and-data.md#server-functions).
    trackingRef.current ??= import('./record-visit')
      .then((module) => {
        visitModuleRef.current = module;
        return module.recordVisit(platform, target, originalPath());
      })
      .catch((error: unknown) => {
        console.error('storePreInstallData failed', error);
        return null;
      })
      .then((trackingId) => {
        if (trackingId) {
          trackingIdRef.current = trackingId;
          update({ trackingId });
        }
        return trackingId;
      });

    const timers: ReturnType<typeof setTimeout>[] = [];
    if (platform === 'ios') {
      timers.push(setTimeout(() => attemptedRef.current || attemptOpen(), IOS_AUTO_OPEN_MS));
    } else {
      let secondsLeft = LANDING_COUNTDOWN_SECONDS;
      const tick = () => {
        secondsLeft -= 1;
        update({ secondsLeft });
        if (secondsLeft > 0) {
          timers.push(setTimeout(tick, SECOND_MS));
        } else if (platform === 'android') {
          if (!attemptedRef.current) attemptOpen();
        } else {
          update({ phase: 'desktop' });
        }
      };
      timers.push(setTimeout(tick, SECOND_MS));
    }

    // The page going to the background means the app opened: the store fallback must not follow.
    const cancelFallback = () => clearTimeout(fallbackTimerRef.current);
    const onVisibility = () => document.visibilityState === 'hidden' && cancelFallback();
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', cancelFallback);
    return () => {
      timers.forEach(clearTimeout);
      cancelFallback();
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', cancelFallback);
    };
  }, [attemptOpen, update]);

  // The explicit tap: copy the tracking id for the app's first launch (iOS has no install referrer;
  // the clipboard needs a tap), then open the app. A tap before the automatic attempt replaces it; a
  // later tap opens the app again, since the visitor asked for it (e.g. back after installing).
  const openApp = useCallback(() => {
    if (tapPendingRef.current) return; // a double tap opens the app once
    tapPendingRef.current = true;
    attemptedRef.current = true;
    const copy =
      visitModuleRef.current?.copyTrackingId(trackingIdRef.current, trackingRef.current) ?? Promise.resolve();
    void copy.finally(() => {
      tapPendingRef.current = false;
      attemptOpen();
    });
  }, [attemptOpen]);

  return { state, openApp };
}
