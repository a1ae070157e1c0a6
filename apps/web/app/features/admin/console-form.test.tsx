import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import enAdmin from '@skanova/shared/i18n/en/admin.json';
import frAdmin from '@skanova/shared/i18n/fr/admin.json';
import type { FieldError } from '../../lib/form-errors';
import { I18nextProvider } from '../../lib/react-i18n';
import { createTestI18n } from '../../test-support/i18n';
import { ConsoleError, ConsoleInput } from './console-form';

// A console form's text field (ADR 009), as an operator meets it: found by its label, described by its
// hint; the error about its path — or about a field inside it — stands under it in the page's
// language, marks it invalid and describes it; what is typed goes to the form's state.

afterEach(cleanup);

/** The texts of the elements that describe `element` (aria-describedby), in order. */
const description = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);

const ID_FORMAT: FieldError = { path: 'id', key: 'admin:groups.errors.idFormat' };

function GroupId({ lang, errors, onValue }: { lang: 'en' | 'fr'; errors: FieldError[]; onValue: (v: string) => void }) {
  const [i18n] = useState(() => createTestI18n(lang, { en: { admin: enAdmin }, fr: { admin: frAdmin } }));
  const [value, setValue] = useState('');
  const t = i18n.getFixedT(lang, 'admin');
  return (
    <I18nextProvider i18n={i18n}>
      <ConsoleInput
        id="group-id"
        path="id"
        label={t('groups.create.id')}
        hint={t('groups.create.idHint')}
        errors={errors}
        value={value}
        maxLength={40}
        onValue={(next) => {
          setValue(next);
          onValue(next);
        }}
      />
    </I18nextProvider>
  );
}

describe('ConsoleInput', () => {
  it('is found by its label, described by its hint, valid without an error; what is typed is its value', async () => {
    const onValue = vi.fn();
    render(<GroupId lang="en" errors={[]} onValue={onValue} />);
    const input = screen.getByRole('textbox', { name: enAdmin.groups.create.id });
    expect(description(input)).toEqual([enAdmin.groups.create.idHint]);
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.getAttribute('maxlength')).toBe('40');
    await userEvent.type(input, 'creators');
    expect((input as HTMLInputElement).value).toBe('creators');
    expect(onValue).toHaveBeenLastCalledWith('creators');
  });

  it('shows the error about its path under it, in the page’s language, and is invalid and described by it', () => {
    render(<GroupId lang="fr" errors={[ID_FORMAT]} onValue={() => {}} />);
    const input = screen.getByRole('textbox', { name: frAdmin.groups.create.id });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(description(input)).toEqual([frAdmin.groups.create.idHint, frAdmin.groups.errors.idFormat]);
    expect(screen.getByText(frAdmin.groups.errors.idFormat).className).toBe('field-error');
  });

  it('counts an error about a field inside its path, and no other', () => {
    const { unmount } = render(
      <GroupId lang="en" errors={[{ path: 'id.0', key: 'admin:groups.errors.idFormat' }]} onValue={() => {}} />,
    );
    expect(screen.getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
    unmount();
    render(
      <GroupId lang="en" errors={[{ path: 'identity', key: 'admin:groups.errors.idFormat' }]} onValue={() => {}} />,
    );
    expect(screen.getByRole('textbox').getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText(enAdmin.groups.errors.idFormat)).toBeNull();
  });
});

describe('ConsoleError', () => {
  it('says an error no field shows, and nothing without one', () => {
    const i18n = createTestI18n('en', { en: { admin: enAdmin } });
    const { container, rerender } = render(
      <I18nextProvider i18n={i18n}>
        <ConsoleError error={undefined} />
      </I18nextProvider>,
    );
    expect(container.innerHTML).toBe('');
    rerender(
      <I18nextProvider i18n={i18n}>
        <ConsoleError error={ID_FORMAT} />
      </I18nextProvider>,
    );
    expect(screen.getByText(enAdmin.groups.errors.idFormat).className).toBe('field-error');
  });
});
