import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BANNER_PREVIEW_SCALE, BANNER_SIZES, type BannerSize } from '@skanova/shared/marketing/constants';
import en from '@skanova/shared/i18n/en/marketing.json';
import { siteConfig } from '../../lib/site-config';
import { MarketingPanel } from './marketing-panel';
import { WithStrings } from './test-i18n';

const CODE = 'K7M2QX4P';
const LINK = `https://skanova.example/download?ref=${CODE}`;
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => ({ brand: 'Skanova', ...values })[name] ?? '');

function renderPanel() {
  return render(
    <WithStrings>
      <MarketingPanel code={CODE} link={LINK} />
    </WithStrings>,
  );
}

function mockClipboard(writeText: (text: string) => Promise<void>) {
  const spy = vi.fn(writeText);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: spy }, configurable: true });
  return spy;
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('MarketingPanel', () => {
  it('previews each banner size at half scale with the code', async () => {
    renderPanel();
    for (const size of Object.keys(BANNER_SIZES) as BannerSize[]) {
      await userEvent.selectOptions(screen.getByLabelText(en.banners.size), size);
      const svg = screen.getByRole('img', { name: fill(en.banners.alt, { code: CODE }) });
      expect(svg.getAttribute('width')).toBe(String(BANNER_SIZES[size].width * BANNER_PREVIEW_SCALE));
      expect(svg.getAttribute('viewBox')).toBe(`0 0 ${BANNER_SIZES[size].width} ${BANNER_SIZES[size].height}`);
      expect([...svg.querySelectorAll('text')].some((text) => text.textContent === CODE)).toBe(true);
    }
  });

  it('copies the embed snippet of the chosen banner and confirms it', async () => {
    const writeText = mockClipboard(async () => {});
    renderPanel();
    await userEvent.selectOptions(screen.getByLabelText(en.banners.size), 'vertical');
    await userEvent.selectOptions(screen.getByLabelText(en.banners.theme), 'light');
    await userEvent.click(screen.getByRole('button', { name: en.banners.copyHtml }));
    const snippet = writeText.mock.calls[0]?.[0] ?? '';
    expect(snippet).toContain(`src="${siteConfig.publicUrl}/api/marketing/banners/${CODE}/vertical-light.png?lang=en"`);
    expect(snippet).toContain('width="160" height="600"');
    expect(snippet).toContain(`href="${LINK}"`);
    expect((screen.getByLabelText(en.banners.htmlLabel) as HTMLTextAreaElement).value).toBe(snippet);
    expect(screen.getAllByRole('status').some((status) => status.textContent === en.banners.htmlCopied)).toBe(true);
  });

  it('only logs a failed copy', async () => {
    mockClipboard(async () => {
      throw new Error('denied');
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderPanel();
    await userEvent.click(screen.getByRole('button', { name: en.banners.copyHtml }));
    expect(warn).toHaveBeenCalled();
    expect(screen.getAllByRole('status').every((status) => status.textContent === '')).toBe(true);
  });

  it('fills the e-mail and the posts with the code and the link', async () => {
    const writeText = mockClipboard(async () => {});
    renderPanel();
    await userEvent.click(screen.getByRole('button', { name: en.email.copy }));
    expect(writeText).toHaveBeenLastCalledWith(
      fill(en.email.copyText, {
        subject: fill(en.email.subject, {}),
        body: fill(en.email.body, { code: CODE, link: LINK }),
      }),
    );
    for (const network of ['instagram', 'facebook', 'twitter'] as const) {
      const name = en.social.posts[network].name;
      await userEvent.click(screen.getByRole('button', { name: fill(en.social.copy, { network: name }) }));
      const text = fill(en.social.posts[network].text, { code: CODE, link: LINK });
      expect(writeText).toHaveBeenLastCalledWith(text);
      expect(text).toContain(CODE);
    }
  });

  it('links to both print documents of the code, in the page language', () => {
    renderPanel();
    const print = screen.getByRole('region', { name: en.print.title });
    expect(within(print).getByRole('link', { name: en.print.flyer }).getAttribute('href')).toBe(
      `/api/marketing/print/${CODE}/flyer.pdf?lang=en`,
    );
    expect(within(print).getByRole('link', { name: en.print.businessCard }).getAttribute('href')).toBe(
      `/api/marketing/print/${CODE}/business-card.pdf?lang=en`,
    );
    expect(screen.getByRole('region', { name: en.tipsTitle }).querySelectorAll('li')).toHaveLength(4);
  });
});
