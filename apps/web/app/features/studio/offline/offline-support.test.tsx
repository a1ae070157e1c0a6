import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import common from '@skanova/shared/i18n/en/common.json';
import studio from '@skanova/shared/i18n/en/studio.json';
import { STUDIO_SW_PATH, STUDIO_SW_SCOPE } from '@skanova/shared/studio/offline';
import { createTestI18n } from '../../../test-support/i18n';

// The page's side of the app's service worker: registration with workbox-window, the notice that a new
// version waits, held back while an analysis is under way, and the reload the visitor asks for.

const { FakeWorkbox } = vi.hoisted(() => {
  /** workbox-window's Workbox as the tests drive it: they fire its events. */
  class FakeWorkbox extends EventTarget {
    static last: FakeWorkbox | undefined;
    static instances = 0;
    readonly registered = vi.fn(() => Promise.resolve({}));
    readonly messageSkipWaiting = vi.fn();
    readonly update = vi.fn(() => Promise.resolve());
    constructor(
      readonly scriptURL: string,
      readonly options: { scope?: string },
    ) {
      super();
      FakeWorkbox.last = this;
      FakeWorkbox.instances++;
    }
    register() {
      return this.registered();
    }
    fire(type: 'waiting' | 'controlling', props: { isUpdate?: boolean } = {}) {
      this.dispatchEvent(Object.assign(new Event(type), props));
    }
  }
  return { FakeWorkbox };
});

vi.mock('workbox-window', () => ({ Workbox: FakeWorkbox }));

const i18n = createTestI18n('en', { en: { common, studio } });
const notice = studio.offline.update;
let waitingWorker: object | null;

beforeEach(() => {
  // Each test starts with a page that has not registered anything yet.
  vi.resetModules();
  FakeWorkbox.last = undefined;
  FakeWorkbox.instances = 0;
  waitingWorker = {};
  globalThis.indexedDB = new IDBFactory();
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: vi.fn(async () => ({ waiting: waitingWorker })) },
  });
});

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

/** Consent given on this device, as the app's home records it. */
async function giveConsent() {
  const { createStudioStore } = await import('../storage');
  await createStudioStore().giveConsent(new Date('2026-11-25T10:00:00Z'));
}

/** The app's layout part, and a page that holds updates while `busy`; the visitor has consented. */
async function renderApp(busy = false) {
  await giveConsent();
  // Imported after the modules' reset, with the component: one React context for both.
  const { I18nextProvider } = await import('../../../lib/react-i18n');
  const { OfflineSupport } = await import('./offline-support');
  const { useHoldAppUpdate } = await import('./update-hold');
  const { currentPage } = await import('./app-update');
  const reload = vi.spyOn(currentPage, 'reload').mockImplementation(() => {});
  function Page({ busy: pageBusy }: { busy: boolean }) {
    useHoldAppUpdate(pageBusy);
    return null;
  }
  const view = render(
    <I18nextProvider i18n={i18n}>
      <Page busy={busy} />
      <OfflineSupport />
    </I18nextProvider>,
  );
  const rerender = (nextBusy: boolean) =>
    view.rerender(
      <I18nextProvider i18n={i18n}>
        <Page busy={nextBusy} />
        <OfflineSupport />
      </I18nextProvider>,
    );
  await vi.waitFor(() => expect(FakeWorkbox.last?.registered).toHaveBeenCalled());
  /** The layout mounted again (the visitor left the app by a link inside the page, and came back). */
  const remount = () => {
    view.unmount();
    render(
      <I18nextProvider i18n={i18n}>
        <OfflineSupport />
      </I18nextProvider>,
    );
  };
  return { workbox: FakeWorkbox.last!, reload, rerender, remount };
}

/** Fires one of workbox-window's events, as React sees it. */
function fire(
  workbox: InstanceType<typeof FakeWorkbox>,
  type: 'waiting' | 'controlling',
  props: { isUpdate?: boolean } = {},
) {
  act(() => workbox.fire(type, props));
}

const reloadButton = () => screen.queryByRole('button', { name: notice.reload });

describe("the app's service worker, from the page", () => {
  it('is registered once, at its own address, for the app only', async () => {
    const { workbox, remount } = await renderApp();
    remount();
    await Promise.resolve();
    expect(FakeWorkbox.instances).toBe(1);
    expect(workbox.scriptURL).toBe(STUDIO_SW_PATH);
    expect(workbox.options).toEqual({ scope: STUDIO_SW_SCOPE });
    expect(reloadButton()).toBeNull();
    // The live region is there before anything is announced in it.
    expect(document.querySelector('[aria-live="polite"]')?.textContent).toBe('');
    expect(screen.queryByRole('region', { name: notice.label })).toBeNull();
  });

  it('says when a new version waits, and switches to it when the visitor asks', async () => {
    const { workbox, reload } = await renderApp();
    fire(workbox, 'waiting');
    const region = screen.getByRole('region', { name: notice.label });
    expect(region.textContent).toContain(notice.ready);
    expect(region.closest('[aria-live="polite"]')).not.toBeNull();
    expect(screen.getByText(notice.keep, { exact: false })).toBeDefined();
    await userEvent.click(reloadButton()!);
    expect(workbox.messageSkipWaiting).toHaveBeenCalledTimes(1);
    // The page reloads only once the new version controls it.
    expect(reload).not.toHaveBeenCalled();
    fire(workbox, 'controlling', { isUpdate: true });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('never shows the notice while a page holds it (an analysis, a result not saved)', async () => {
    const { workbox, rerender } = await renderApp(true);
    fire(workbox, 'waiting');
    expect(reloadButton()).toBeNull();
    rerender(false);
    expect(reloadButton()).not.toBeNull();
    rerender(true);
    expect(reloadButton()).toBeNull();
  });

  it('puts the notice away for this page when the visitor says "later"', async () => {
    const { workbox } = await renderApp();
    fire(workbox, 'waiting');
    await userEvent.click(screen.getByRole('button', { name: notice.later }));
    expect(reloadButton()).toBeNull();
  });

  it('tells this page when another tab took the new version, and then simply reloads', async () => {
    const { workbox, reload } = await renderApp();
    // The first version taking charge of a page that had none is not an update.
    fire(workbox, 'controlling', { isUpdate: false });
    expect(reloadButton()).toBeNull();
    fire(workbox, 'controlling', { isUpdate: true });
    waitingWorker = null;
    await userEvent.click(reloadButton()!);
    expect(workbox.messageSkipWaiting).not.toHaveBeenCalled();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('waits for consent: nothing is registered (nor downloaded) before, and giving it starts the offline copy', async () => {
    const { I18nextProvider } = await import('../../../lib/react-i18n');
    const { OfflineSupport } = await import('./offline-support');
    const { useConsent } = await import('../use-consent');
    function ConsentButton() {
      const consent = useConsent();
      return (
        <button type="button" onClick={() => void consent.give()}>
          consent
        </button>
      );
    }
    render(
      <I18nextProvider i18n={i18n}>
        <ConsentButton />
        <OfflineSupport />
      </I18nextProvider>,
    );
    // The device's answer (no consent) is read, and still nothing is registered.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(FakeWorkbox.instances).toBe(0);
    await userEvent.click(screen.getByRole('button', { name: 'consent' }));
    await vi.waitFor(() => expect(FakeWorkbox.last?.registered).toHaveBeenCalled());
    expect(FakeWorkbox.instances).toBe(1);
  });

  it('does nothing in a browser without service workers', async () => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
    await giveConsent();
    const { I18nextProvider } = await import('../../../lib/react-i18n');
    const { OfflineSupport } = await import('./offline-support');
    render(
      <I18nextProvider i18n={i18n}>
        <OfflineSupport />
      </I18nextProvider>,
    );
    // Long enough for the consent to be read from the device.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(FakeWorkbox.last).toBeUndefined();
  });
});
