import { CLIPBOARD_TRACKING_PREFIX, type Platform } from '@skanova/shared/landing/constants';
import type { LandingTarget } from '@skanova/shared/landing/landing-path';
import { callFunction } from '../../lib/callable';
import { readConsent } from '../../lib/consent';
import { localStorageOrNull, rememberReferral } from '../../lib/referral-memory';
import { browserEnvironment, buildPreInstallRequest, visitorSessionId } from './fingerprint';

// Loaded on demand by the landing page right after it mounts (keeps the callable client out of its
// first-load JavaScript).

/** What the "Open the app" tap copies to the clipboard (the prefix is shared with the app). */
export function clipboardTrackingText(trackingId: string): string {
  return `${CLIPBOARD_TRACKING_PREFIX}${trackingId}`;
}

/** The "Open the app" tap waits at most this long for the clipboard (and a tracking id still on its way). */
const CLIPBOARD_WAIT_MS = 1000;

/**
 * Records the visit with storePreInstallData (docs/product/calls-and-data.md#server-functions) and answers its tracking id; the server also
 * keeps it in the 90-day cookie. A failure is logged and answers null: the redirect never waits for
 * this call and continues without it (docs/product/calls-and-data.md#server-functions). A referral's code is also kept on the device
 * (lib/referral-memory.ts), so that the web app's "get the mobile app" comes back here with it.
 */
export async function recordVisit(
  platform: Platform,
  target: LandingTarget,
  originalPath: string,
): Promise<string | null> {
  if (target.type === 'ref' && target.code) rememberReferral(target.code, new Date(), localStorageOrNull());
  try {
    const request = buildPreInstallRequest({
      env: browserEnvironment(),
      platform,
      sessionId: visitorSessionId(sessionStorageOrNull()),
      now: new Date(),
      target,
      originalPath,
      search: window.location.search,
      detailed: readConsent() === 'granted',
    });
    const { trackingId } = await callFunction('storePreInstallData', request);
    return trackingId;
  } catch (error) {
    console.error('storePreInstallData failed', error);
    return null;
  }
}

/**
 * Copies the tracking id for the app's first launch (docs/product/attribution.md#install-attribution); failures are ignored (no
 * permission, no clipboard). Called from the tap itself: browsers allow the clipboard only there.
 * When the id is still on its way, the write waits for it (a ClipboardItem keeps the tap's
 * permission), within a limit, so the app opens soon in any case.
 */
export function copyTrackingId(trackingId: string | null, pending: Promise<string | null> | null): Promise<void> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (!clipboard) return Promise.resolve();
  let write: Promise<void>;
  try {
    if (trackingId) {
      write = clipboard.writeText(clipboardTrackingText(trackingId));
    } else if (pending && typeof ClipboardItem !== 'undefined' && typeof clipboard.write === 'function') {
      const text = pending.then((id) => {
        if (!id) throw new Error('No tracking id to copy');
        return new Blob([clipboardTrackingText(id)], { type: 'text/plain' });
      });
      write = clipboard.write([new ClipboardItem({ 'text/plain': text })]);
    } else {
      return Promise.resolve();
    }
  } catch {
    return Promise.resolve();
  }
  const limit = new Promise<void>((resolve) => setTimeout(resolve, CLIPBOARD_WAIT_MS));
  return Promise.race([write.catch(() => undefined), limit]);
}

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
