import { z } from 'zod';
import { CLIPBOARD_TRACKING_PREFIX } from '../landing/constants.ts';
import { TRACKING_COOKIE_DAYS } from '../site/timing.ts';
import { REFERRAL_CODE_PATTERN } from '../landing/schemas.ts';
import { storableText } from '../callable/storable-text.ts';

// Install attribution (docs/product/attribution.md#install-attribution): what the app sends at first launch, and the rules' constants.
// The app may pass the tracking id as the landing page hands it over: the bare id, the iOS clipboard
// text (`sk-tid:<id>`), or the Google Play install referrer (`tracking_id=<id>&code=<code>`, possibly
// still URL-encoded). Unknown or unreadable ids and codes are not errors: they attribute nothing.

export const INSTALL_PLATFORMS = ['ios', 'android'] as const;
export type InstallPlatform = (typeof INSTALL_PLATFORMS)[number];

export const ATTRIBUTION_METHODS = ['tracking_id', 'code_claim', 'ip_match'] as const;
export type AttributionMethod = (typeof ATTRIBUTION_METHODS)[number];

/**
 * How sure each method is that the install came from the affiliate: the tracking id names the very
 * visit; a code is the person's (or the link's) own word; an IP + platform match within the window
 * may be someone else on the same network.
 */
export const ATTRIBUTION_CONFIDENCE: Record<AttributionMethod, number> = {
  tracking_id: 1,
  code_claim: 0.9,
  ip_match: 0.4,
};

/** An IP + platform match counts only for a visit this recent (the affiliate terms say "within the hour"). */
export const IP_MATCH_WINDOW_MINUTES = 60;
/** A tracking id is honoured as long as its cookie lives (docs/product/rules-and-constants.md#cookies: tracking 90 days). */
export const TRACKING_ID_MAX_AGE_DAYS = TRACKING_COOKIE_DAYS;

/** Tracking ids are base64url (the server issues 24 characters); anything else cannot name a visit. */
const TRACKING_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
/** Bounded, and storable (storable-text.ts: no NUL, no lone surrogate). */
const boundedText = (max: number) => z.string().max(max).check(storableText());

/** The tracking id and the link's code carried by what the app read (bare id, clipboard or install referrer). */
export function parseTrackingValue(value: string): { trackingId: string | null; code: string | null } {
  let text = value.trim();
  if (text.startsWith(CLIPBOARD_TRACKING_PREFIX)) text = text.slice(CLIPBOARD_TRACKING_PREFIX.length).trim();
  // The Play install referrer may reach the app still URL-encoded (`tracking_id%3D…`).
  if (!text.includes('=') && /%3D/i.test(text)) text = safeDecode(text);
  if (!text.includes('=')) return { trackingId: TRACKING_ID_PATTERN.test(text) ? text : null, code: null };
  const params = new URLSearchParams(text.startsWith('?') ? text.slice(1) : text);
  const trackingId = params.get('tracking_id')?.trim() ?? '';
  return {
    trackingId: TRACKING_ID_PATTERN.test(trackingId) ? trackingId : null,
    code: normaliseCode(params.get('code')),
  };
}

/** A referral code as stored (upper-case), or null when it cannot be one (docs/product/rules-and-constants.md#referral-codes: case-insensitive). */
export function normaliseCode(value: string | null | undefined): string | null {
  const code = value?.trim() ?? '';
  return REFERRAL_CODE_PATTERN.test(code) ? code.toUpperCase() : null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The app's device details (docs/product/calls-and-data.md#visit-record fields), all optional and bounded; kept with the install. */
export const installDeviceSchema = z.object({
  userAgent: boundedText(1024).optional(),
  language: boundedText(64).optional(),
  timezone: boundedText(64).optional(),
  screenResolution: boundedText(32).optional(),
  colorDepth: z.number().int().min(0).max(64).nullable().optional(),
  deviceMemory: z.number().min(0).max(1024).nullable().optional(),
  hardwareConcurrency: z.number().int().min(0).max(1024).nullable().optional(),
  // The ISO format allows year 0000, which does not exist in PostgreSQL's calendar.
  timestamp: z.iso
    .datetime()
    .refine((value) => !value.startsWith('0000'), 'Invalid date.')
    .optional(),
});

export const attributeInstallRequestSchema = z
  .object({
    /** RevenueCat's app user id at first launch (often `$RCAnonymousID:…`). */
    appUserId: z.string().trim().min(1).max(256).check(storableText()),
    platform: z.enum(INSTALL_PLATFORMS),
    trackingId: boundedText(2048).nullish(),
    /** A code the person typed in the app. */
    referralCode: boundedText(64).nullish(),
    device: installDeviceSchema.nullish(),
  })
  .transform(({ trackingId, referralCode, ...rest }) => {
    const carried = trackingId ? parseTrackingValue(trackingId) : { trackingId: null, code: null };
    return {
      ...rest,
      trackingId: carried.trackingId,
      /** The code the install referrer carried beside the tracking id (the link's own code). */
      linkCode: carried.code,
      referralCode: normaliseCode(referralCode),
      device: rest.device ?? null,
    };
  });

export type AttributeInstallRequest = z.input<typeof attributeInstallRequestSchema>;
export type AttributeInstallInput = z.output<typeof attributeInstallRequestSchema>;

export interface AttributeInstallResponse {
  attributed: boolean;
  /** The referral code the install is attributed to (upper-case), or null. */
  code: string | null;
  method: AttributionMethod | null;
}
