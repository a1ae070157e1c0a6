import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from '../../../lib/react-i18n';
import { afterEach, describe, expect, it, vi } from 'vitest';
import enCommon from '@skanova/shared/i18n/en/common.json';
import enSupport from '@skanova/shared/i18n/en/support.json';
import frCommon from '@skanova/shared/i18n/fr/common.json';
import frSupport from '@skanova/shared/i18n/fr/support.json';
import { CallableClientError } from '../../../lib/callable';
import ContactForm, { type SendContactForm } from './contact-form';
import { createTestI18n } from '../../../test-support/i18n';

afterEach(cleanup);

async function renderForm(lang: 'fr' | 'en', send: SendContactForm) {
  const i18n = createTestI18n(lang, {
    fr: { common: frCommon, support: frSupport },
    en: { common: enCommon, support: enSupport },
  });
  render(
    <I18nextProvider i18n={i18n}>
      <ContactForm send={send} />
    </I18nextProvider>,
  );
  return userEvent.setup();
}

async function fill(
  user: ReturnType<typeof userEvent.setup>,
  values: { name: string; email: string; subject: string; message: string },
) {
  await user.type(screen.getByLabelText('Name'), values.name);
  await user.type(screen.getByLabelText('E-mail'), values.email);
  await user.selectOptions(screen.getByLabelText('Subject'), values.subject);
  await user.type(screen.getByLabelText('Message'), values.message);
}

const valid = {
  name: 'Ana',
  email: 'ana@example.com',
  subject: 'feedback',
  message: 'I love the weekly scan reminders.',
};

describe('ContactForm', () => {
  it('validates with the shared schema and shows translated messages without sending', async () => {
    const send = vi.fn<SendContactForm>();
    const user = await renderForm('fr', send);
    await user.type(screen.getByLabelText('Message'), 'Court');
    await user.click(screen.getByRole('button', { name: frSupport.form.submit }));

    expect(send).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe(frSupport.form.invalid);
    const name = screen.getByLabelText('Nom');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      frSupport.form.errors.nameRequired,
    );
    expect(document.activeElement).toBe(name);
    expect(screen.getByText(frSupport.form.errors.subjectRequired)).toBeTruthy();
    expect(screen.getByText(frSupport.form.errors.messageTooShort.replace('{{min}}', '10'))).toBeTruthy();
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Court');
  });

  it('sends the trimmed values with the page language and clears the form on success', async () => {
    const send = vi.fn<SendContactForm>().mockResolvedValue({ ticketId: 't1' });
    const user = await renderForm('en', send);
    await fill(user, { ...valid, name: '  Ana ' });
    await user.click(screen.getByRole('button', { name: enSupport.form.submit }));

    expect(send).toHaveBeenCalledWith({ ...valid, language: 'en' });
    expect((await screen.findByRole('status')).textContent).toBe(enSupport.form.success);
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('');
  });

  it('shows the error of a failed call in the visitor language and keeps every value', async () => {
    const send = vi
      .fn<SendContactForm>()
      .mockRejectedValue(new CallableClientError('resource-exhausted', 'Too many requests.'));
    const user = await renderForm('en', send);
    await fill(user, valid);
    await user.click(screen.getByRole('button', { name: enSupport.form.submit }));

    expect((await screen.findByText(enCommon.callable['resource-exhausted'])).closest('[role="alert"]')).toBeTruthy();
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe(valid.name);
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe(valid.email);
    expect((screen.getByLabelText('Subject') as HTMLSelectElement).value).toBe(valid.subject);
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe(valid.message);
  });
});
