import { afterEach, describe, expect, it, vi } from 'vitest';
import { callFunction } from '../../lib/callable';
import { rememberedReferral } from '../../lib/referral-memory';
import { clipboardTrackingText, copyTrackingId, recordVisit } from './record-visit';

vi.mock('../../lib/callable', () => ({ callFunction: vi.fn() }));

function fakeClipboard() {
  const clipboard = {
    writeText: vi.fn(async (_text: string) => undefined),
    write: vi.fn(async (_items: ClipboardItem[]) => undefined),
  };
  vi.stubGlobal('navigator', { clipboard });
  return clipboard;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.mocked(callFunction).mockReset();
});

describe('recordVisit', () => {
  it('sends the visit and answers the tracking id', async () => {
    vi.mocked(callFunction).mockResolvedValue({ trackingId: 'tid-9' });
    await expect(recordVisit('android', { type: 'ref', code: 'ABC123' }, '/ref/ABC123')).resolves.toBe('tid-9');
    const [name, data] = vi.mocked(callFunction).mock.calls[0]!;
    expect(name).toBe('storePreInstallData');
    expect(data).toMatchObject({
      deeplink: { type: 'ref', code: 'ABC123', fullPath: '/ref/ABC123' },
      fingerprint: { platform: 'android' },
    });
  });

  it("keeps a referral's code on the device for the web app, and nothing for a plain download link", async () => {
    localStorage.clear();
    vi.mocked(callFunction).mockResolvedValue({ trackingId: 'tid-9' });
    await recordVisit('desktop', { type: 'download', code: null }, '/download');
    expect(rememberedReferral(new Date(), localStorage)).toBeNull();
    await recordVisit('desktop', { type: 'ref', code: 'abc123' }, '/ref/abc123');
    expect(rememberedReferral(new Date(), localStorage)).toBe('ABC123');
    localStorage.clear();
  });

  it('logs a failure and answers null, so the redirect continues', async () => {
    const error = new Error('not-found');
    vi.mocked(callFunction).mockRejectedValue(error);
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(recordVisit('ios', { type: 'download', code: null }, '/download')).resolves.toBeNull();
    expect(log).toHaveBeenCalledWith('storePreInstallData failed', error);
  });
});

describe('copyTrackingId', () => {
  it('copies the prefixed tracking id the app looks for', async () => {
    const clipboard = fakeClipboard();
    await copyTrackingId('tid-9', null);
    expect(clipboard.writeText).toHaveBeenCalledWith('sk-tid:tid-9');
    expect(clipboardTrackingText('tid-9')).toBe('sk-tid:tid-9');
  });

  it('ignores a refused clipboard', async () => {
    const clipboard = fakeClipboard();
    clipboard.writeText.mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    await expect(copyTrackingId('tid-9', null)).resolves.toBeUndefined();
  });

  it('does not hold the app back for a clipboard that never answers', async () => {
    vi.useFakeTimers();
    const clipboard = fakeClipboard();
    clipboard.writeText.mockReturnValue(new Promise(() => undefined));
    const copied = copyTrackingId('tid-9', null);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(copied).resolves.toBeUndefined();
  });

  it('does nothing without an id or a clipboard', async () => {
    const clipboard = fakeClipboard();
    await copyTrackingId(null, null);
    expect(clipboard.writeText).not.toHaveBeenCalled();
    vi.stubGlobal('navigator', {});
    await expect(copyTrackingId('tid-9', null)).resolves.toBeUndefined();
  });
});
