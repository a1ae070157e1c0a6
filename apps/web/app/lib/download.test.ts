import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadTextFile } from './download';

// The payout export is saved through a temporary link to a Blob (no data: URL, no inline script).

afterEach(() => vi.restoreAllMocks());

describe('downloadTextFile', () => {
  it('clicks a link named after the file to a Blob of the content, then lets both go', async () => {
    vi.useFakeTimers();
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:http://localhost/export-1';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: { href: string; download: string; inDocument: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, inDocument: document.body.contains(this) });
    });

    downloadTextFile('paypal-2025-06-15.csv', 'Email,Amount\nada@example.com,22.00\n', 'text/csv;charset=utf-8');

    expect(clicked).toEqual([
      { href: 'blob:http://localhost/export-1', download: 'paypal-2025-06-15.csv', inDocument: true },
    ]);
    expect(await blobs[0]!.text()).toBe('Email,Amount\nada@example.com,22.00\n');
    expect(blobs[0]!.type).toBe('text/csv;charset=utf-8');
    expect(document.querySelector('a[download]')).toBeNull();
    expect(URL.revokeObjectURL).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/export-1');
    vi.useRealTimers();
  });
});
