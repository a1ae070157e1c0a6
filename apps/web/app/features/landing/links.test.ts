import { describe, expect, it } from 'vitest';
import { appDeepLink, playStoreUrlWithReferrer, webAppLink } from './links';

describe('appDeepLink', () => {
  it('opens ref/CODE for a referral with a code', () => {
    expect(appDeepLink('skanova://', { type: 'ref', code: 'ABC123' })).toBe('skanova://ref/ABC123');
  });

  it('opens the type when there is no code', () => {
    expect(appDeepLink('skanova://', { type: 'download', code: null })).toBe('skanova://download');
    expect(appDeepLink('skanova://', { type: 'ref', code: null })).toBe('skanova://ref');
  });

  it('keeps the code of a download link out of the path', () => {
    expect(appDeepLink('skanova://', { type: 'download', code: 'ABC123' })).toBe('skanova://download');
  });

  it('uses the configured scheme and encodes the code', () => {
    expect(appDeepLink('glow://', { type: 'ref', code: 'a b/c' })).toBe('glow://ref/a%20b%2Fc');
  });
});

describe('playStoreUrlWithReferrer', () => {
  const play = 'https://play.google.com/store/apps/details?id=com.skanova.app';

  it('appends the install referrer with the tracking id and the code', () => {
    const url = playStoreUrlWithReferrer(play, 'tid-42', 'ABC123');
    expect(url).toBe(`${play}&referrer=${encodeURIComponent('tracking_id=tid-42&code=ABC123')}`);
    const referrer = new URL(url).searchParams.get('referrer');
    expect(new URLSearchParams(referrer ?? '').get('tracking_id')).toBe('tid-42');
    expect(new URLSearchParams(referrer ?? '').get('code')).toBe('ABC123');
    expect(new URL(url).searchParams.get('id')).toBe('com.skanova.app');
  });

  it('starts the query when the address has none', () => {
    expect(playStoreUrlWithReferrer('https://play.example/app', 'tid', null)).toBe(
      'https://play.example/app?referrer=tracking_id%3Dtid',
    );
  });

  it('carries what it knows and nothing when it knows nothing', () => {
    expect(playStoreUrlWithReferrer(play, null, 'ABC123')).toBe(`${play}&referrer=code%3DABC123`);
    expect(playStoreUrlWithReferrer(play, null, null)).toBe(play);
  });

  it('keeps a fragment at the end', () => {
    expect(playStoreUrlWithReferrer('https://play.example/app?id=x#top', 'tid', null)).toBe(
      'https://play.example/app?id=x&referrer=tracking_id%3Dtid#top',
    );
  });
});

describe('webAppLink', () => {
  const studio = 'https://skanova.example/studio';

  it('carries a referral’s code to the web app, which keeps it', () => {
    expect(webAppLink(studio, { type: 'ref', code: 'K7M2QX4P' })).toBe(`${studio}?ref=K7M2QX4P`);
    expect(webAppLink(`${studio}?lang=fr#top`, { type: 'ref', code: 'a b' })).toBe(`${studio}?lang=fr&ref=a%20b#top`);
  });

  it('is the web app alone without a referral, and before the page knows its address', () => {
    expect(webAppLink(studio, { type: 'download', code: 'K7M2QX4P' })).toBe(studio);
    expect(webAppLink(studio, { type: 'ref', code: null })).toBe(studio);
    expect(webAppLink(studio, undefined)).toBe(studio);
  });
});
