import { z } from 'zod';
import { LANDING_TYPES, PLATFORMS, type LandingType, type Platform } from './constants.ts';
import { REFERRAL_CODE_PATTERN } from './referral-code.ts';
import { storableText } from '../callable/storable-text.ts';

// The landing page's visit record (docs/product/calls-and-data.md#visit-record and "Deep-link payload").
// Bounds keep a hostile client from storing megabytes per visit; every text, the query's keys
// included, passes the storable-text rule (storable-text.ts): a NUL or a lone surrogate would fail
// the insert instead of the validation.

export { LANDING_TYPES, PLATFORMS, REFERRAL_CODE_PATTERN, type LandingType, type Platform };

const shortText = (max: number) => z.string().max(max).check(storableText());

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
  // The ISO format allows year 0000, which does not exist in PostgreSQL's calendar.
  timestamp: z.iso.datetime().refine((value) => !value.startsWith('0000'), 'Invalid date.'),
  referrer: shortText(2048),
});

export const deeplinkSchema = z.object({
  type: z.enum(LANDING_TYPES),
  code: shortText(64).nullable(),
  fullPath: shortText(2048),
});

export const preInstallRequestSchema = z.object({
  fingerprint: fingerprintSchema,
  deeplink: deeplinkSchema,
  path: shortText(2048),
  query: z
    .record(shortText(64), shortText(512))
    .refine((q) => Object.keys(q).length <= 32, 'At most 32 query parameters.'),
});

export const preInstallResponseSchema = z.object({ trackingId: z.string() });

export type PreInstallRequest = z.infer<typeof preInstallRequestSchema>;
export type Fingerprint = z.infer<typeof fingerprintSchema>;
