import { describe, expect, it } from 'vitest';
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

  it('with only the landing’s tracking id, Google Play still carries it to the install', () => {
    const links = mobileAppLinks(null, 'tid-42', stores);
    expect(links.kind === 'stores' && new URL(links.googlePlay).searchParams.get('referrer')).toBe(
      'tracking_id=tid-42',
    );
  });
});
