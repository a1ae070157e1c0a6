import { LANDING_TYPES, type LandingType } from './constants.ts';

export interface LandingTarget {
  type: LandingType;
  code: string | null;
}

/**
 * Reads the landing target from any of its addresses (docs/product/routes-and-screens.md#referral-landing): /ref/CODE, /app/TYPE, /app/TYPE/CODE,
 * /download and /download?ref=CODE. Returns null for any other path or an unknown type.
 */
export function parseLandingPath(pathname: string, search: string): LandingTarget | null {
  const parts = pathname.split('/').filter(Boolean).map(decodeSegment);
  const refParam = new URLSearchParams(search).get('ref')?.trim() || null;
  if (parts.length === 1 && parts[0] === 'download') {
    const type = new URLSearchParams(search).get('type');
    if (type === 'ref' || type === 'download') return { type, code: refParam };
    return { type: refParam ? 'ref' : 'download', code: refParam };
  }
  if (parts.length === 2 && parts[0] === 'ref' && parts[1]) return { type: 'ref', code: parts[1] };
  if ((parts.length === 2 || parts.length === 3) && parts[0] === 'app') {
    const type = parts[1];
    if (!isLandingType(type)) return null;
    return { type, code: parts[2] ?? refParam };
  }
  return null;
}

/**
 * The canonical address of a landing path other than /download itself, or null. Other query
 * parameters (e.g. utm_*) are carried over.
 */
export function landingRedirectPath(pathname: string, search: string): string | null {
  if (pathname === '/download') return null;
  const target = parseLandingPath(pathname, search);
  if (!target) return null;
  const params = new URLSearchParams(search);
  params.set('type', target.type);
  if (target.code) params.set('ref', target.code);
  else params.delete('ref');
  return `/download?${params.toString()}`;
}

function isLandingType(value: unknown): value is LandingType {
  return typeof value === 'string' && (LANDING_TYPES as readonly string[]).includes(value);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
