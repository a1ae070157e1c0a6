import { describe, expect, it } from 'vitest';
import { parseTrackingValue } from '@skanova/shared/attribution/schemas';
import { mobileAppLinks } from './mobile-app-links';

// "Get the mobile app": through the referral landing with the visitor's code, else to the stores.

const stores = {
  appStoreUrl: 'https://apps.apple.com/app/skanova/id1',
  playStoreUrl: 'https://play.google.com/store/apps/details?id=com.skanova.app',
};

describe('mobileAppLinks', () => {
  it('goes through the referral landing with the code', () => {
    expect(mobileAppLinks('K7M2QX4P', 'tid-1', stores)).toEqual({
      kind: 'referral',
      code: 'K7M2QX4P',
      href: '/app/ref/K7M2QX4P',
    });
  });

  it('without a referral, goes to the stores as the site does', () => {
    expect(mobileAppLinks(null, null, stores)).toEqual({
      kind: 'stores',
      appStore: stores.appStoreUrl,
      googlePlay: stores.playStoreUrl,
    });
  });

  it('with only the landing’s tracking id, Google Play carries it to the install, as the app reads it', () => {
    const links = mobileAppLinks(null, 'Zm9vYmFyLWJhei1xdXV4', stores);
    if (links.kind !== 'stores') throw new Error('expected the stores');
    const url = new URL(links.googlePlay);
    expect(url.searchParams.get('id')).toBe('com.skanova.app');
    // What Play hands to the app's first launch, read by the attribution's own parser.
    expect(parseTrackingValue(url.searchParams.get('referrer') ?? '')).toEqual({
      trackingId: 'Zm9vYmFyLWJhei1xdXV4',
      code: null,
    });
    expect(links.appStore).toBe(stores.appStoreUrl);
  });
});
