import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { type Lang, strings } from './helpers/i18n';
import { expectHealthy, waitForAnimations, watchPageHealth } from './helpers/page-health';

// The support page (docs/product/routes-and-screens.md#support-page): the FAQ accordion, the contact block with its
// optional phone and live-chat cards (the test server configures both), and the contact form that
// files a ticket — validated in the visitor's language, never losing what they typed.

const FN_URL = '**/api/fn/submitContactForm';
const PHONE = '+33 1 23 45 67 89';
const LIVE_CHAT_URL = 'https://chat.skanova.example/live';

const visitor = {
  name: 'Jeanne Dupont',
  email: 'jeanne@example.com',
  message: "L'analyse s'arrête à 80 % depuis la mise à jour.",
};

/** Opens the support page in a language and waits until the form is interactive. */
async function openSupport(page: Page, lang: Lang) {
  await page.goto(`/support?lang=${lang}`);
  const form = strings(lang, 'support').form;
  await expect(page.getByRole('button', { name: form.submit })).toBeEnabled();
  return { support: strings(lang, 'support'), common: strings(lang, 'common') };
}

function formFields(page: Page, lang: Lang) {
  const form = strings(lang, 'support').form;
  const contactForm = page.getByRole('form', { name: form.title });
  return {
    name: contactForm.getByLabel(form.name, { exact: true }),
    email: contactForm.getByLabel(form.email, { exact: true }),
    subject: contactForm.getByLabel(form.subject, { exact: true }),
    message: contactForm.getByLabel(form.message, { exact: true }),
    submit: contactForm.getByRole('button', { name: form.submit }),
  };
}

async function fillValid(page: Page, lang: Lang) {
  const fields = formFields(page, lang);
  await fields.name.fill(visitor.name);
  await fields.email.fill(visitor.email);
  await fields.subject.selectOption('technical');
  await fields.message.fill(visitor.message);
  return fields;
}

async function expectValuesKept(page: Page, lang: Lang) {
  const fields = formFields(page, lang);
  await expect(fields.name).toHaveValue(visitor.name);
  await expect(fields.email).toHaveValue(visitor.email);
  await expect(fields.subject).toHaveValue('technical');
  await expect(fields.message).toHaveValue(visitor.message);
}

test('the FAQ opens one answer at a time, by mouse and by keyboard', async ({ page }) => {
  const health = await watchPageHealth(page);
  const { support } = await openSupport(page, 'fr');
  // The texts name the configured brand (the test server keeps the default).
  const items = (support.faq.items as { question: string; answer: string }[]).map((item) => ({
    question: item.question.replaceAll('{{brand}}', 'Skanova'),
    answer: item.answer.replaceAll('{{brand}}', 'Skanova'),
  }));
  expect(items).toHaveLength(10);
  const faq = page.locator('#faq');
  const question = (index: number) => faq.getByRole('button', { name: items[index]?.question });
  const answer = (index: number) => faq.getByRole('region', { name: items[index]?.question });

  for (let index = 0; index < items.length; index += 1)
    await expect(question(index)).toHaveAttribute('aria-expanded', 'false');
  await expect(faq.getByRole('region')).toHaveCount(0);

  await question(0).click();
  await expect(question(0)).toHaveAttribute('aria-expanded', 'true');
  await expect(answer(0)).toBeVisible();
  await expect(answer(0)).toContainText('95 %');

  await question(4).click();
  await expect(question(4)).toHaveAttribute('aria-expanded', 'true');
  await expect(question(0)).toHaveAttribute('aria-expanded', 'false');
  await expect(faq.getByRole('region')).toHaveCount(1);
  await expect(answer(4)).toContainText(items[4]?.answer ?? '');

  // Keyboard: arrows move between questions, Enter and Space toggle.
  await question(4).focus();
  await page.keyboard.press('ArrowDown');
  await expect(question(5)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(question(5)).toHaveAttribute('aria-expanded', 'true');
  await expect(question(4)).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('End');
  await expect(question(9)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(answer(9)).toContainText('30');
  await expect(faq.getByRole('region')).toHaveCount(1);
  await page.keyboard.press('Space');
  await expect(faq.getByRole('region')).toHaveCount(0);
  await page.keyboard.press('Home');
  await expect(question(0)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(question(9)).toBeFocused();

  expectHealthy(health, '/support');
});

test('the #faq and #contact anchors lead to their sections', async ({ page }) => {
  const support = strings('fr', 'support');
  await page.goto('/support#faq');
  await expect(page.locator('#faq')).toBeInViewport();
  await expect(page.locator('#faq').getByRole('heading', { level: 2 })).toHaveText(support.faq.title);

  await page.goto('/support#contact');
  await expect(page.locator('#contact')).toBeInViewport();
  await expect(page.locator('#contact').getByRole('heading', { level: 2 })).toHaveText(support.contact.title);

  await page.getByRole('link', { name: support.contact.submitTicket }).click();
  await expect(page).toHaveURL(/\/support#contact-form$/);
  await expect(page.getByRole('form', { name: support.form.title })).toBeInViewport();
});

test('the contact block shows e-mail, live chat and phone, the response time and the hours', async ({ page }) => {
  const { support } = await openSupport(page, 'en');
  const contact = page.locator('#contact');
  await expect(contact.getByRole('link', { name: 'support@skanova.com' })).toHaveAttribute(
    'href',
    'mailto:support@skanova.com',
  );
  await expect(contact.getByRole('heading', { name: support.contact.chat.title })).toBeVisible();
  await expect(contact.getByRole('link', { name: support.contact.chat.action })).toHaveAttribute('href', LIVE_CHAT_URL);
  await expect(contact.getByRole('heading', { name: support.contact.phone.title })).toBeVisible();
  await expect(contact.getByRole('link', { name: PHONE })).toHaveAttribute('href', 'tel:+33123456789');
  await expect(contact).toContainText('24–48 hours');
  await expect(contact).toContainText('9AM–6PM CET, Monday to Friday');

  await page.goto('/support?lang=fr');
  await expect(page.locator('#contact')).toContainText('9 h – 18 h CET, du lundi au vendredi');
  await expect(page.locator('#contact').getByRole('link', { name: PHONE })).toBeVisible();
});

test('invalid input shows translated messages beside the fields and keeps what was typed', async ({ page }) => {
  let calls = 0;
  await page.route(FN_URL, (route) => {
    calls += 1;
    return route.fallback();
  });
  const { support } = await openSupport(page, 'fr');
  const fields = formFields(page, 'fr');
  await fields.name.fill(visitor.name);
  await fields.email.fill('jeanne-at-example');
  await fields.message.fill('Court');
  await fields.submit.click();

  const errors = support.form.errors;
  await expect(page.getByRole('alert').filter({ hasText: support.form.invalid })).toBeVisible();
  await expect(fields.email).toHaveAttribute('aria-invalid', 'true');
  await expect(fields.email).toHaveAccessibleDescription(errors.emailInvalid);
  await expect(fields.subject).toHaveAccessibleDescription(errors.subjectRequired);
  await expect(fields.message).toHaveAccessibleDescription(
    `${support.form.messageHint.replace('{{min}}', '10')} ${errors.messageTooShort.replace('{{min}}', '10')}`,
  );
  await expect(fields.name).not.toHaveAttribute('aria-invalid', 'true');
  await expect(fields.email).toBeFocused();
  await expect(fields.name).toHaveValue(visitor.name);
  await expect(fields.email).toHaveValue('jeanne-at-example');
  await expect(fields.message).toHaveValue('Court');
  expect(calls).toBe(0);

  // Correcting a field clears its message.
  await fields.email.fill(visitor.email);
  await expect(fields.email).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(errors.emailInvalid)).toHaveCount(0);
  await expect(page.getByText(errors.subjectRequired)).toBeVisible();

  // The page stays accessible with messages showing and an answer open.
  await page.locator('#faq').getByRole('button').first().click();
  await waitForAnimations(page);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
  expect(
    results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`),
  ).toEqual([]);
});

for (const lang of ['fr', 'en'] as const) {
  test(`a valid submission files a ticket and says so (${lang})`, async ({ page }) => {
    const health = await watchPageHealth(page);
    const { support } = await openSupport(page, lang);
    const fields = await fillValid(page, lang);
    const request = page.waitForRequest(FN_URL);
    const response = page.waitForResponse(FN_URL);
    await fields.submit.click();
    expect((await request).postDataJSON()).toEqual({
      data: {
        name: visitor.name,
        email: visitor.email,
        subject: 'technical',
        message: visitor.message,
        language: lang,
      },
    });
    expect((await response).status()).toBe(200);
    await expect(page.getByRole('status').filter({ hasText: support.form.success })).toBeVisible();
    await expect(fields.name).toHaveValue('');
    await expect(fields.email).toHaveValue('');
    await expect(fields.subject).toHaveValue('');
    await expect(fields.message).toHaveValue('');
    expectHealthy(health, `/support?lang=${lang}`);
  });
}

test('the button shows the request is in progress', async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let calls = 0;
  await page.route(FN_URL, async (route) => {
    calls += 1;
    await held;
    await route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ result: { ticketId: 'x' } }),
    });
  });
  const { support } = await openSupport(page, 'en');
  const fields = await fillValid(page, 'en');
  await fields.submit.click();
  const busy = page.getByRole('button', { name: support.form.sending });
  await expect(busy).toHaveAttribute('aria-disabled', 'true');
  // A second click while busy sends nothing more.
  await busy.click({ force: true });
  release();
  await expect(page.getByRole('status').filter({ hasText: support.form.success })).toBeVisible();
  expect(calls).toBe(1);
});

for (const [status, code, key] of [
  [500, 'INTERNAL', 'internal'],
  [429, 'RESOURCE_EXHAUSTED', 'resource-exhausted'],
] as const) {
  test(`a server answer ${status} shows its message and keeps every field`, async ({ page }) => {
    let calls = 0;
    await page.route(FN_URL, (route) => {
      calls += 1;
      return route.fulfill({
        status,
        contentType: 'application/json',
        body: JSON.stringify({ error: { status: code, message: 'Server message' } }),
      });
    });
    const { common } = await openSupport(page, 'fr');
    const fields = await fillValid(page, 'fr');
    await fields.submit.click();
    await expect(page.getByRole('alert').filter({ hasText: common.callable[key] })).toBeVisible();
    await expectValuesKept(page, 'fr');
    expect(calls).toBe(1);

    // Trying again sends the same values.
    await page.unroute(FN_URL);
    await fields.submit.click();
    await expect(page.getByRole('status').filter({ hasText: strings('fr', 'support').form.success })).toBeVisible();
  });
}
