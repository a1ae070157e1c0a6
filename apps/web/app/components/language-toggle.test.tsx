import { act, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { expect, it, onTestFinished } from 'vitest';
import common from '@skanova/shared/i18n/fr/common.json';
import { I18nextProvider } from '../lib/react-i18n';
import { createTestI18n } from '../test-support/i18n';
import { LanguageToggle } from './language-toggle';

it('says it is unavailable on the prerendered page, and is available once hydrated', async () => {
  const toggle = (
    <I18nextProvider i18n={createTestI18n('fr', { fr: { common } })}>
      <LanguageToggle />
    </I18nextProvider>
  );
  const container = document.createElement('div');
  container.innerHTML = renderToString(toggle);
  document.body.append(container);
  onTestFinished(() => container.remove());
  const button = () => screen.getByRole('button', { name: new RegExp(common.language.switchTo) });
  expect(button().getAttribute('aria-disabled')).toBe('true');
  const root = await act(async () => hydrateRoot(container, toggle));
  onTestFinished(() => act(() => root.unmount()));
  expect(button().hasAttribute('aria-disabled')).toBe(false);
});
