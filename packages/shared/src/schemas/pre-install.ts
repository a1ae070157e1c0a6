import { z } from 'zod';
import { LANDING_TYPES, PLATFORMS, type LandingType, type Platform } from '../constants/landing.ts';

// The landing page's visit record (spec §3 "Device fingerprint" and "Deep-link payload").
// Bounds keep a hostile client from storing megabytes per visit.

export { LANDING_TYPES, PLATFORMS, type LandingType, type Platform };

/** Referral codes: letters and digits, matched case-insensitively (BRIEF §4). */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9]{4,32}$/;

const shortText = (max: number) => z.string().max(max);

export const fingerprintSchema = z.object({
  userAgent: shortText(1024),
  language: shortText(64),
  timezone: shortText(64),
  screenResolution: shortText(32),
  platform: z.enum(PLATFORMS),
  colorDepth: z.number().int().min(0).max(64).nullable(),
  deviceMemory: z.number().min(0).max(1024).nullable(),
  hardwareConcurrency: z.number().int().min(0).max(1024).nullable(),
  sessionId: shortText(64),
  timestamp: z.iso.datetime(),
  referrer: shortText(2048),
});

export const deeplinkSchema = z.object({
  type: z.enum(LANDING_TYPES),
  code: z.string().max(64).nullable(),
  fullPath: shortText(2048),
});

export const preInstallRequestSchema = z.object({
  fingerprint: fingerprintSchema,
  deeplink: deeplinkSchema,
  path: shortText(2048),
  query: z.record(z.string().max(64), z.string().max(512)).refine((q) => Object.keys(q).length <= 32),
});

export const preInstallResponseSchema = z.object({ trackingId: z.string() });

export type PreInstallRequest = z.infer<typeof preInstallRequestSchema>;
export type Fingerprint = z.infer<typeof fingerprintSchema>;
