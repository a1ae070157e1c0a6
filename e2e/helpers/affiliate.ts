import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { BASE_URL } from '../../playwright.config';
import { type Lang, strings } from './i18n';

// Affiliate fixtures shared by the browser tests: fresh accounts made through the real signup
// function, signing in through the page or the API, and the e-mails the test server writes to its
// outbox (DATA_DIR/outbox, one .eml file per message).

export interface TestAffiliate {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

let counter = 0;

/** An address no other test uses (tests run in parallel against one database). */
export function uniqueEmail(label = 'affiliate'): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
}

export function newAffiliate(overrides: Partial<TestAffiliate> = {}): TestAffiliate {
  return { email: uniqueEmail(), password: 'correct-horse-1', firstName: 'Ana', lastName: 'Martin', ...overrides };
}

const SAME_ORIGIN = { origin: BASE_URL, 'content-type': 'application/json' };

type SignupOverrides = Partial<TestAffiliate> & { language?: Lang };

/** Creates an affiliate through the real `createAffiliate` function (payment method: later). */
export async function createAffiliateAccount(
  request: APIRequestContext,
  overrides: SignupOverrides = {},
): Promise<TestAffiliate> {
  const { language = 'fr', ...fields } = overrides;
  const affiliate = newAffiliate(fields);
  const response = await request.post('/api/fn/createAffiliate', {
    headers: SAME_ORIGIN,
    data: { data: { ...affiliate, paymentMethod: 'later', termsAccepted: true, language } },
  });
  expect(response.status(), await response.text()).toBe(200);
  return affiliate;
}

/**
 * Creates an affiliate with the page's request context: the browser is signed in as that affiliate
 * afterwards (the answer sets the session cookie). Use the `request` fixture instead for an account
 * the browser must not be signed in to.
 */
export function signUpViaApi(page: Page, overrides: SignupOverrides = {}): Promise<TestAffiliate> {
  return createAffiliateAccount(page.request, overrides);
}

/** Signs in with the API (sets the session cookie in the page's context). */
export async function logInViaApi(page: Page, account: Pick<TestAffiliate, 'email' | 'password'>): Promise<void> {
  const response = await page.request.post('/api/auth/sign-in/email', {
    headers: SAME_ORIGIN,
    data: { email: account.email, password: account.password, rememberMe: true },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Signs out with the API (the browser's session cookie is cleared). */
export async function logOutViaApi(page: Page): Promise<void> {
  const response = await page.request.post('/api/auth/sign-out', { headers: SAME_ORIGIN, data: {} });
  expect(response.status()).toBe(200);
}

/** The login page's form, found by the names a visitor reads. */
export function loginForm(page: Page, lang: Lang) {
  const auth = strings(lang, 'auth');
  const form = page.getByRole('form', { name: auth.login.title });
  return {
    email: form.getByLabel(auth.fields.email, { exact: true }),
    password: form.getByLabel(auth.fields.password, { exact: true }),
    submit: form.getByRole('button', { name: auth.login.submit, exact: true }),
    forgot: form.getByRole('button', { name: auth.login.forgot }),
  };
}

/** Opens the login page in a language and waits until its form works. */
export async function openLogin(page: Page, lang: Lang) {
  await page.goto(`/affiliate/login?lang=${lang}`);
  const form = loginForm(page, lang);
  await expect(form.submit).toBeEnabled();
  return form;
}

/** Logs in through the login page and waits for the dashboard's address. */
export async function logIn(
  page: Page,
  account: Pick<TestAffiliate, 'email' | 'password'>,
  lang: Lang = 'fr',
): Promise<void> {
  const form = await openLogin(page, lang);
  await form.email.fill(account.email);
  await form.password.fill(account.password);
  await form.submit.click();
  await expect(page).toHaveURL(/\/affiliate\/dashboard$/);
}

// ---------- Outbox ----------

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function outboxDir(): string {
  return path.join(ROOT, '.e2e-data', new URL(BASE_URL).port, 'outbox');
}

interface Email {
  file: string;
  to: string;
  text: string;
}

async function readEmail(file: string): Promise<Email> {
  const parsed = await simpleParser(readFileSync(file));
  const to = Array.isArray(parsed.to) ? parsed.to.map((address) => address.text).join(', ') : (parsed.to?.text ?? '');
  return { file, to, text: parsed.text ?? '' };
}

/** The newest e-mail to `address`, waiting for it to be written (e-mails are sent in the background). */
export async function waitForEmail(address: string, options: { after?: number } = {}): Promise<Email> {
  let found: Email | undefined;
  await expect
    .poll(
      async () => {
        let files: string[];
        try {
          files = readdirSync(outboxDir()).filter((name) => name.endsWith('.eml'));
        } catch {
          return false; // no e-mail written yet
        }
        // Files are named "<milliseconds>-<random>.eml": the newest is last once sorted by that number.
        const recent = files
          .map((name) => ({ name, time: Number.parseInt(name, 10) }))
          .filter((entry) => entry.time >= (options.after ?? 0))
          .sort((a, b) => a.time - b.time);
        const emails = await Promise.all(recent.map((entry) => readEmail(path.join(outboxDir(), entry.name))));
        found = emails.filter((email) => email.to.toLowerCase().includes(address.toLowerCase())).at(-1);
        return found !== undefined;
      },
      { message: `an e-mail to ${address}` },
    )
    .toBe(true);
  return found as Email;
}

/** The password-reset link of the newest reset e-mail to `address`. */
export async function resetLinkFor(address: string, options: { after?: number } = {}): Promise<string> {
  const email = await waitForEmail(address, options);
  const link = /https?:\/\/\S+\/affiliate\/reset-password\?token=[^\s"<>]+/.exec(email.text)?.[0];
  expect(link, `a reset link in ${email.file}`).toBeTruthy();
  return link as string;
}
