import { describe, expect, it } from 'vitest';
import { landingRedirectPath, parseLandingPath } from './landing-path.ts';

describe('parseLandingPath', () => {
  it('reads every address of the landing page', () => {
    expect(parseLandingPath('/ref/AB12CD34', '')).toEqual({ type: 'ref', code: 'AB12CD34' });
    expect(parseLandingPath('/app/ref/AB12CD34', '')).toEqual({ type: 'ref', code: 'AB12CD34' });
    expect(parseLandingPath('/app/download', '')).toEqual({ type: 'download', code: null });
    expect(parseLandingPath('/app/download/AB12CD34', '')).toEqual({ type: 'download', code: 'AB12CD34' });
    expect(parseLandingPath('/download', '')).toEqual({ type: 'download', code: null });
    expect(parseLandingPath('/download', '?ref=AB12CD34')).toEqual({ type: 'ref', code: 'AB12CD34' });
    expect(parseLandingPath('/download', '?type=download&ref=X1')).toEqual({ type: 'download', code: 'X1' });
  });

  it('refuses other paths and unknown types', () => {
    expect(parseLandingPath('/app/other/AB12', '')).toBeNull();
    expect(parseLandingPath('/ref', '')).toBeNull();
    expect(parseLandingPath('/ref/A/B', '')).toBeNull();
    expect(parseLandingPath('/terms', '')).toBeNull();
    expect(parseLandingPath('/app', '')).toBeNull();
  });

  it('survives malformed percent-encoding', () => {
    expect(parseLandingPath('/ref/%E0%A4%A', '')).toEqual({ type: 'ref', code: '%E0%A4%A' });
  });
});

describe('landingRedirectPath', () => {
  it('rewrites aliases to the canonical referral link and keeps other parameters', () => {
    expect(landingRedirectPath('/ref/AB12', '')).toBe('/download?type=ref&ref=AB12');
    expect(landingRedirectPath('/app/download', '?utm_source=ig')).toBe('/download?utm_source=ig&type=download');
    expect(landingRedirectPath('/app/ref/AB12', '?utm_source=ig')).toBe('/download?utm_source=ig&type=ref&ref=AB12');
  });

  it('leaves /download itself and non-landing paths alone', () => {
    expect(landingRedirectPath('/download', '?ref=AB12')).toBeNull();
    expect(landingRedirectPath('/support', '')).toBeNull();
  });
});
