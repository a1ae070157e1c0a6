import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QR_DEFAULTS, QR_SIZE_RANGE } from '@skanova/shared/marketing/constants';
import en from '@skanova/shared/i18n/en/marketing.json';
import type { ReactNode } from 'react';
import common from '@skanova/shared/i18n/en/common.json';
import { I18nextProvider } from '../lib/react-i18n';
import { createTestI18n } from '../test-support/i18n';
import { ReferralQrPanel } from './referral-qr-panel';

const i18n = createTestI18n('en', { en: { common, marketing: en } });
const WithStrings = ({ children }: { children: ReactNode }) => (
  <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
);

const CODE = 'K7M2QX4P';
const LINK = `https://skanova.example/download?ref=${CODE}`;
const qrName = en.qr.imageLabel.replace('{{link}}', LINK);

/** Files the panel saves: the Blob given to createObjectURL and the name of the clicked link. */
function captureDownloads() {
  const files: { name: string; blob: Blob }[] = [];
  let last: Blob | undefined;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    last = blob as Blob;
    return 'blob:test';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (last) files.push({ name: this.download, blob: last });
  });
  return files;
}

beforeEach(() => {
  // createObjectURL does not exist in jsdom: give spyOn something to replace.
  URL.createObjectURL ??= () => '';
  URL.revokeObjectURL ??= () => {};
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderPanel() {
  return render(
    <WithStrings>
      <ReferralQrPanel code={CODE} link={LINK} />
    </WithStrings>,
  );
}

describe('ReferralQrPanel', () => {
  it('shows the QR code of the link with its defaults, the link and three tips', () => {
    renderPanel();
    const qr = screen.getByRole('img', { name: qrName });
    expect(qr.getAttribute('width')).toBe(String(QR_DEFAULTS.size));
    expect(qr.querySelector('path')?.getAttribute('fill')).toBe(QR_DEFAULTS.foreground);
    expect(qr.querySelector('rect')?.getAttribute('fill')).toBe(QR_DEFAULTS.background);
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d/);
    expect(screen.getByText(LINK)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 4, name: en.qr.tipsTitle })).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(en.qr.tips);
  });

  it('draws a different code for a different link', () => {
    const first = renderPanel();
    const path = first.container.querySelector('path')?.getAttribute('d');
    cleanup();
    render(
      <WithStrings>
        <ReferralQrPanel code="W3RT9ZH2" link="https://skanova.example/download?ref=W3RT9ZH2" />
      </WithStrings>,
    );
    expect(document.querySelector('path')?.getAttribute('d')).not.toBe(path);
  });

  it('reveals the size and colour options behind a toggle, and they change the code', async () => {
    renderPanel();
    const toggle = screen.getByRole('button', { name: en.qr.options });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('slider')).toBeNull();
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const slider = screen.getByRole('slider');
    expect([slider.getAttribute('min'), slider.getAttribute('max'), slider.getAttribute('step')]).toEqual(
      [QR_SIZE_RANGE.min, QR_SIZE_RANGE.max, QR_SIZE_RANGE.step].map(String),
    );
    fireEvent.change(slider, { target: { value: '350' } });
    fireEvent.input(screen.getByLabelText(en.qr.foreground), { target: { value: '#112233' } });
    fireEvent.input(screen.getByLabelText(en.qr.background), { target: { value: '#fafad2' } });
    const qr = screen.getByRole('img', { name: qrName });
    expect(qr.getAttribute('width')).toBe('350');
    expect(screen.getByLabelText(en.qr.size.replace('{{size}}', '350'))).toBe(slider);
    expect(qr.querySelector('path')?.getAttribute('fill')).toBe('#112233');
    expect(qr.querySelector('rect')?.getAttribute('fill')).toBe('#fafad2');
  });

  it('downloads an SVG at the chosen size and colours, named after the code', async () => {
    const files = captureDownloads();
    renderPanel();
    await userEvent.click(screen.getByRole('button', { name: en.qr.options }));
    fireEvent.change(screen.getByRole('slider'), { target: { value: '120' } });
    fireEvent.input(screen.getByLabelText(en.qr.foreground), { target: { value: '#000000' } });
    await userEvent.click(screen.getByRole('button', { name: en.qr.downloadSvg }));
    expect(files.map((file) => file.name)).toEqual([`qr-code-${CODE}.svg`]);
    const svg = await files[0]!.blob.text();
    expect(files[0]!.blob.type).toMatch(/^image\/svg\+xml/);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="120" height="120"/);
    expect(svg).toContain('fill="#000000"');
    expect(svg).toContain(`<title>${qrName}</title>`);
  });
});
