import { afterEach, describe, expect, it } from 'vitest';
import {
  REFERRAL_MEMORY_KEY,
  arrivalReferralCode,
  referralCodeOf,
  rememberReferral,
  rememberedReferral,
  trackingIdFromCookies,
} from './referral-memory';

// Referral continuity: the code a visitor came with is kept on the device for 90 days, the last one
// winning, and read back by the web app's "get the mobile app".

const SITE = 'https://skanova.example';
const DAY_MS = 86_400_000;

afterEach(() => localStorage.clear());

describe('the referral code of an address', () => {
  it('reads ?ref= on any page, and the landing’s own forms', () => {
    expect(referralCodeOf(new URL(`${SITE}/?ref=k7m2qx4p`))).toBe('K7M2QX4P');
    expect(referralCodeOf(new URL(`${SITE}/studio/journal?lang=en&ref=K7M2QX4P`))).toBe('K7M2QX4P');
    expect(referralCodeOf(new URL(`${SITE}/download?ref=K7M2QX4P`))).toBe('K7M2QX4P');
    expect(referralCodeOf(new URL(`${SITE}/download?type=ref&ref=K7M2QX4P`))).toBe('K7M2QX4P');
    expect(referralCodeOf(new URL(`${SITE}/ref/K7M2QX4P`))).toBe('K7M2QX4P');
    expect(referralCodeOf(new URL(`${SITE}/app/ref/K7M2QX4P`))).toBe('K7M2QX4P');
  });

  it('ignores plain download links, other shapes and pages without a code', () => {
    expect(referralCodeOf(new URL(`${SITE}/app/download/K7M2QX4P`))).toBeNull();
    expect(referralCodeOf(new URL(`${SITE}/download?type=download&ref=K7M2QX4P`))).toBeNull();
    expect(referralCodeOf(new URL(`${SITE}/?ref=<script>`))).toBeNull();
    expect(referralCodeOf(new URL(`${SITE}/?ref=AB`))).toBeNull();
    expect(referralCodeOf(new URL(`${SITE}/support`))).toBeNull();
  });

  it('on arrival: this page’s code, else the code of the page of this site that linked here', () => {
    expect(arrivalReferralCode(`${SITE}/studio?ref=AAAA1111`, `${SITE}/?ref=BBBB2222`)).toBe('AAAA1111');
    expect(arrivalReferralCode(`${SITE}/studio`, `${SITE}/?lang=fr&ref=BBBB2222`)).toBe('BBBB2222');
    expect(arrivalReferralCode(`${SITE}/studio`, `${SITE}/download?type=ref&ref=BBBB2222`)).toBe('BBBB2222');
    // Another site's address is not ours to read.
    expect(arrivalReferralCode(`${SITE}/studio`, 'https://elsewhere.example/?ref=BBBB2222')).toBeNull();
    expect(arrivalReferralCode(`${SITE}/studio`, '')).toBeNull();
  });
});

describe('the referral kept on the device', () => {
  const arrived = new Date('2026-11-01T10:00:00Z');

  it('is kept 90 days, like the tracking cookie', () => {
    rememberReferral('k7m2qx4p', arrived, localStorage);
    expect(rememberedReferral(arrived, localStorage)).toBe('K7M2QX4P');
    expect(rememberedReferral(new Date(arrived.getTime() + 90 * DAY_MS), localStorage)).toBe('K7M2QX4P');
    expect(rememberedReferral(new Date(arrived.getTime() + 90 * DAY_MS + 1), localStorage)).toBeNull();
  });

  it('the last referral wins', () => {
    rememberReferral('AAAA1111', arrived, localStorage);
    rememberReferral('BBBB2222', new Date(arrived.getTime() + DAY_MS), localStorage);
    expect(rememberedReferral(new Date(arrived.getTime() + 2 * DAY_MS), localStorage)).toBe('BBBB2222');
  });

  it('survives what it cannot use: nothing kept, a damaged record, a refused storage', () => {
    expect(rememberedReferral(arrived, localStorage)).toBeNull();
    localStorage.setItem(REFERRAL_MEMORY_KEY, '{not json');
    expect(rememberedReferral(arrived, localStorage)).toBeNull();
    localStorage.setItem(REFERRAL_MEMORY_KEY, JSON.stringify({ code: 'x!', at: arrived.toISOString() }));
    expect(rememberedReferral(arrived, localStorage)).toBeNull();
    rememberReferral('not a code', arrived, localStorage);
    expect(localStorage.getItem(REFERRAL_MEMORY_KEY)).toContain('x!');
    const refusing = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    } as unknown as Storage;
    expect(() => rememberReferral('K7M2QX4P', arrived, refusing)).not.toThrow();
    expect(rememberedReferral(arrived, refusing)).toBeNull();
    expect(rememberedReferral(arrived, null)).toBeNull();
  });
});

describe('the landing’s tracking cookie', () => {
  it('is read when present', () => {
    expect(trackingIdFromCookies('lang=fr; sk_tid=Zm9vYmFyLWJhei1xdXV4; consent=denied')).toBe('Zm9vYmFyLWJhei1xdXV4');
    expect(trackingIdFromCookies('lang=fr')).toBeNull();
    // Not an id the server issues: not carried anywhere.
    expect(trackingIdFromCookies('sk_tid=tid%26code%3DEVIL')).toBeNull();
    expect(trackingIdFromCookies('')).toBeNull();
  });
});
