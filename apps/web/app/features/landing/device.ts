import type { Platform } from '@skanova/shared/landing/constants';

/** What the browser tells about the device; `window.navigator` satisfies it. */
export interface DeviceHints {
  userAgent: string;
  platform?: string;
  maxTouchPoints?: number;
}

/**
 * The landing page's device class (docs/product/routes-and-screens.md#referral-landing): iPhone, iPad and iPod are iOS, and so is iPadOS, whose
 * Safari reports a Mac ("Macintosh", platform "MacIntel") and differs only by its touch screen.
 */
export function detectPlatform({ userAgent, platform = '', maxTouchPoints = 0 }: DeviceHints): Platform {
  if (/\b(iPhone|iPad|iPod)\b/i.test(userAgent)) return 'ios';
  const reportsMac = /Macintosh/i.test(userAgent) || platform === 'MacIntel';
  if (reportsMac && maxTouchPoints > 1) return 'ios';
  if (/Android/i.test(userAgent)) return 'android';
  return 'desktop';
}
