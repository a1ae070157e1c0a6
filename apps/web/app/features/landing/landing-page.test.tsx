import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from '../../lib/react-i18n';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import commonEn from '@skanova/shared/i18n/en/common.json';
import landingEn from '@skanova/shared/i18n/en/landing.json';
import { LandingPage } from './landing-page';
import { openUrl } from './open-url';
import { copyTrackingId, recordVisit } from './record-visit';
import { createTestI18n } from '../../test-support/i18n';

// The page's timing rules (docs/product/routes-and-screens.md#referral-landing, docs/product/rules-and-constants.md#timings) with fake timers; the end-to-end tests drive the same flow
// in Chromium on each device.

vi.mock('../../lib/site-config', () => ({
  siteConfig: {
    brandName: 'Skanova',
    appUrlScheme: 'skanova://',
    appStoreUrl: 'https://apps.apple.com/app/skanova/id1',
    playStoreUrl: 'https://play.google.com/store/apps/details?id=com.skanova.app',
    webAppUrl: 'https://skanova.example/studio',
  },
}));
vi.mock('./open-url', () => ({ openUrl: vi.fn() }));
vi.mock('./record-visit', () => ({
  recordVisit: vi.fn(async () => 'tid-1'),
  copyTrackingId: vi.fn(async () => undefined),
}));
vi.mock('./store-qr-codes', () => ({
  loadQrLibrary: async () => ({}),
  StoreQrCodes: () => <p>QR codes</p>,
}));

const USER_AGENTS = {
  ios: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  desktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};
const PLAY_WITH_REFERRER = `https://play.google.com/store/apps/details?id=com.skanova.app&referrer=${encodeURIComponent('tracking_id=tid-1&code=ABC123')}`;

const i18n = createTestI18n('en', { en: { common: commonEn, landing: landingEn } });

async function renderOn(device: keyof typeof USER_AGENTS, path = '/ref/ABC123') {
  vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(USER_AGENTS[device]);
  window.history.replaceState(null, '', path);
  render(
    <I18nextProvider i18n={i18n}>
      <LandingPage />
    </I18nextProvider>,
  );
  await advance(0); // the visit is recorded
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const opened = () => vi.mocked(openUrl).mock.calls.map(([url]) => url);

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.clearAllMocks();
  vi.restoreAllMocks();
});

describe('LandingPage', () => {
  it('on iOS opens the app after 300 ms and the App Store 2.5 s later', async () => {
    await renderOn('ios');
    expect(recordVisit).toHaveBeenCalledWith('ios', { type: 'ref', code: 'ABC123' }, '/ref/ABC123');
    expect(screen.getByText('Invited with code ABC123')).toBeTruthy();
    await advance(299);
    expect(opened()).toEqual([]);
    await advance(1);
    expect(opened()).toEqual(['skanova://ref/ABC123']);
    await advance(2499);
    expect(opened()).toHaveLength(1);
    await advance(1);
    expect(opened()).toEqual(['skanova://ref/ABC123', 'https://apps.apple.com/app/skanova/id1']);
  });

  it('cancels the store when the page is hidden (the app opened)', async () => {
    await renderOn('ios', '/download?type=download');
    await advance(300);
    expect(opened()).toEqual(['skanova://download']);
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    await advance(10_000);
    expect(opened()).toHaveLength(1);
  });

  it('on Android counts down 5 s, opens the app, then Google Play with the install referrer', async () => {
    await renderOn('android');
    for (const seconds of [5, 4, 3, 2, 1]) {
      expect(screen.getByText(`Opening the app in ${seconds}…`)).toBeTruthy();
      await advance(1000);
    }
    expect(opened()).toEqual(['skanova://ref/ABC123']);
    await advance(2500);
    expect(opened()).toEqual(['skanova://ref/ABC123', PLAY_WITH_REFERRER]);
  });

  it('continues to the store without a tracking id when the visit could not be recorded', async () => {
    vi.mocked(recordVisit).mockResolvedValueOnce(null);
    await renderOn('android');
    await advance(7500);
    expect(opened()).toEqual([
      'skanova://ref/ABC123',
      `https://play.google.com/store/apps/details?id=com.skanova.app&referrer=${encodeURIComponent('code=ABC123')}`,
    ]);
  });

  it('the button copies the tracking id, opens the app, and the countdown does not open it again', async () => {
    await renderOn('android');
    await advance(2000);
    fireEvent.click(screen.getByRole('button', { name: 'Open the app' }));
    fireEvent.click(screen.getByRole('button', { name: 'Open the app' }));
    await advance(0);
    expect(copyTrackingId).toHaveBeenCalledTimes(1);
    expect(vi.mocked(copyTrackingId).mock.calls[0]?.[0]).toBe('tid-1');
    expect(opened()).toEqual(['skanova://ref/ABC123']);
    await advance(2500);
    expect(opened()).toEqual(['skanova://ref/ABC123', PLAY_WITH_REFERRER]);
    await advance(10_000);
    expect(opened()).toHaveLength(2);
  });

  it('on a computer counts down, then shows the desktop message without leaving', async () => {
    await renderOn('desktop');
    expect(screen.queryByRole('button', { name: 'Open the app' })).toBeNull();
    await advance(4999);
    expect(screen.queryByRole('heading', { name: 'Skanova lives on your phone' })).toBeNull();
    await advance(1);
    expect(screen.getByRole('heading', { name: 'Skanova lives on your phone' })).toBeTruthy();
    // The QR codes load on demand and React reveals them on its own timers.
    for (let i = 0; i < 20 && !screen.queryByText('QR codes'); i += 1) await advance(100);
    expect(screen.getByText('QR codes')).toBeTruthy();
    await advance(60_000);
    expect(opened()).toEqual([]);
  });

  it('shows a phone its own store and a computer both, and the web app with the referral code', async () => {
    const stores = () =>
      screen.queryAllByRole('link', { name: /App Store|Google Play/ }).map((link) => link.textContent);
    const webApp = () => screen.getByRole('link', { name: 'Open the web app' }).getAttribute('href');
    await renderOn('ios');
    expect(stores()).toEqual(['Download on theApp Store']);
    expect(webApp()).toBe('https://skanova.example/studio?ref=ABC123');
    cleanup();
    await renderOn('android', '/download?type=download');
    expect(stores()).toEqual(['Get it onGoogle Play']);
    expect(webApp()).toBe('https://skanova.example/studio');
    cleanup();
    await renderOn('desktop');
    expect(stores()).toEqual(['Download on theApp Store', 'Get it onGoogle Play']);
    expect(screen.getByRole('link', { name: 'Get it on Google Play' }).getAttribute('href')).toBe(PLAY_WITH_REFERRER);
  });
});
