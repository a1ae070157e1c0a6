import { describe, expect, it } from 'vitest';
import { detectPlatform } from './device';

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  ipod: 'Mozilla/5.0 (iPod touch; CPU iPhone OS 15_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  ipadOsAsMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  linux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
};

describe('detectPlatform', () => {
  it('recognises iPhone, iPad and iPod as iOS', () => {
    expect(detectPlatform({ userAgent: UA.iphone, platform: 'iPhone', maxTouchPoints: 5 })).toBe('ios');
    expect(detectPlatform({ userAgent: UA.ipad, platform: 'iPad', maxTouchPoints: 5 })).toBe('ios');
    expect(detectPlatform({ userAgent: UA.ipod })).toBe('ios');
  });

  it('recognises iPadOS, which reports a Mac, by its touch screen', () => {
    expect(detectPlatform({ userAgent: UA.ipadOsAsMac, platform: 'MacIntel', maxTouchPoints: 5 })).toBe('ios');
  });

  it('keeps a real Mac on the desktop', () => {
    expect(detectPlatform({ userAgent: UA.ipadOsAsMac, platform: 'MacIntel', maxTouchPoints: 0 })).toBe('desktop');
    expect(detectPlatform({ userAgent: UA.ipadOsAsMac })).toBe('desktop');
  });

  it('recognises Android phones and tablets', () => {
    expect(detectPlatform({ userAgent: UA.android, platform: 'Linux armv81', maxTouchPoints: 5 })).toBe('android');
    expect(detectPlatform({ userAgent: UA.androidTablet, maxTouchPoints: 10 })).toBe('android');
  });

  it('treats everything else as a desktop', () => {
    expect(detectPlatform({ userAgent: UA.windows, platform: 'Win32', maxTouchPoints: 10 })).toBe('desktop');
    expect(detectPlatform({ userAgent: UA.linux, platform: 'Linux x86_64' })).toBe('desktop');
    expect(detectPlatform({ userAgent: '' })).toBe('desktop');
  });

  it('reads a browser navigator as it is', () => {
    expect(detectPlatform(window.navigator)).toBe('desktop');
  });
});
