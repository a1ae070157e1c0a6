import { type Locator, type Page, expect, test } from '@playwright/test';
import { PASSWORD_MIN_LENGTH } from '../packages/shared/src/affiliate/programme';
import {
  createAffiliateAccount,
  loginForm,
  logIn,
  newAffiliate,
  openLogin,
  resetLinkFor,
  signUpViaApi,
  uniqueEmail,
} from './helpers/affiliate';
import { type Lang, fill, strings } from './helpers/i18n';
import { SEED_ACCOUNTS } from './helpers/seed-accounts';
import { BASE_URL } from '../playwright.config';

// Affiliate accounts in the browser (docs/product/routes-and-screens.md#affiliate-signup, docs/product/routes-and-screens.md#affiliate-login), in both languages: signup through its three
// steps with each payment method and every validation message, a taken e-mail, login and its error
// catalogue (wrong password, unknown address, disabled account, too many attempts), the password
// reset through the e-mail it sends, logout, the protected-route redirect, and signup by keyboard.

const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-US' };
const DASHBOARD_URL = /\/affiliate\/dashboard(\?|$)/;
const VALID_IBAN = 'FR76 3000 6000 0112 3456 7890 189';
const VALID_BIC = 'BNPAFRPP';

function texts(lang: Lang) {
  const auth = strings(lang, 'auth');
  const payment = strings(lang, 'payment');
  const min = String(PASSWORD_MIN_LENGTH);
  return {
    auth,
    payment,
    /** An `auth` message with its {{min}} filled in. */
    message: (text: string) => text.replace('{{min}}', min),
  };
}

/** The signup form's controls, by the names a visitor reads. */
function signupForm(page: Page, lang: Lang) {
  const { auth, payment } = texts(lang);
  const field = (label: string) => page.getByLabel(label, { exact: true });
  return {
    heading: page.getByRole('main').getByRole('heading', { level: 2 }),
    currentStep: page.getByRole('list', { name: auth.signup.stepsLabel }).locator('[aria-current="step"]'),
    alert: page.getByRole('alert'),
    email: field(auth.fields.email),
    password: field(auth.fields.password),
    confirmPassword: field(auth.fields.confirmPassword),
    firstName: field(auth.fields.firstName),
    lastName: field(auth.fields.lastName),
    phone: page.getByLabel(auth.fields.phone),
    companyName: page.getByLabel(auth.fields.companyName),
    website: page.getByLabel(auth.fields.website),
    later: page.getByRole('radio', { name: payment.methods.later }),
    paypal: page.getByRole('radio', { name: payment.methods.paypal }),
    bank: page.getByRole('radio', { name: payment.methods.bank_transfer }),
    paypalEmail: field(payment.fields.paypalEmail),
    accountHolder: field(payment.fields.accountHolder),
    bankName: field(payment.fields.bankName),
    iban: field(payment.fields.bankIban),
    bic: field(payment.fields.bic),
    terms: page.getByRole('checkbox'),
    next: page.getByRole('button', { name: auth.signup.next, exact: true }),
    back: page.getByRole('button', { name: auth.signup.back, exact: true }),
    submit: page.getByRole('button', { name: auth.signup.submit, exact: true }),
  };
}

type SignupForm = ReturnType<typeof signupForm>;

/** Opens the signup page in a language and waits until its form works (its buttons wait for the script). */
async function openSignup(page: Page, lang: Lang): Promise<SignupForm> {
  await page.goto(`/affiliate/signup?lang=${lang}`);
  const form = signupForm(page, lang);
  await expect(form.next).toBeEnabled();
  return form;
}

async function expectStep(form: SignupForm, lang: Lang, step: 1 | 2 | 3) {
  const { auth } = texts(lang);
  await expect(form.heading).toHaveText(
    auth.signup.stepHeading
      .replace('{{current}}', String(step))
      .replace('{{total}}', '3')
      .replace('{{title}}', auth.signup.steps[step - 1]),
  );
  await expect(form.currentStep).toHaveCount(1);
  await expect(form.currentStep).toContainText(auth.signup.steps[step - 1]);
}

async function fillAccountStep(form: SignupForm, email: string, password = 'correct-horse-1') {
  await form.email.fill(email);
  await form.password.fill(password);
  await form.confirmPassword.fill(password);
  await form.next.click();
}

async function fillProfileStep(form: SignupForm) {
  await form.firstName.fill('Ana');
  await form.lastName.fill('Martin');
  await form.phone.fill('+33 6 12 34 56 78');
  await form.companyName.fill('Peau Claire');
  await form.website.fill('peau-claire.example.com');
  await form.next.click();
}

async function fillBank(
  form: SignupForm,
  overrides: Partial<Record<'accountHolder' | 'bankName' | 'iban' | 'bic', string>> = {},
) {
  const values = {
    accountHolder: 'Ana Martin',
    bankName: 'BNP Paribas',
    iban: VALID_IBAN,
    bic: VALID_BIC,
    ...overrides,
  };
  await form.accountHolder.fill(values.accountHolder);
  await form.bankName.fill(values.bankName);
  await form.iban.fill(values.iban);
  await form.bic.fill(values.bic);
}

/** Focuses `target` with Tab alone (no clicks), failing if it takes more than `max` presses. */
async function tabTo(page: Page, target: Locator, max = 30) {
  for (let presses = 0; presses < max; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

// The consent banner (answered here) would otherwise cover the bottom of the forms on small screens.
test.beforeEach(async ({ context }) => {
  await context.addCookies([{ name: 'consent', value: 'denied', url: BASE_URL }]);
});

for (const lang of ['fr', 'en'] as const) {
  test.describe(`affiliate accounts in ${lang}`, () => {
    test.use({ locale: LOCALES[lang] });
    const { auth, payment, message } = texts(lang);
    const login = auth.login;

    for (const method of ['later', 'paypal', 'bank_transfer'] as const) {
      test(`signup (${lang}) through the three steps with payment method "${method}" opens the dashboard`, async ({
        page,
      }) => {
        const form = await openSignup(page, lang);
        await expectStep(form, lang, 1);
        await fillAccountStep(form, uniqueEmail(`signup-${method}`));
        await expectStep(form, lang, 2);
        await expect(form.heading).toBeFocused();
        await fillProfileStep(form);
        await expectStep(form, lang, 3);
        await expect(form.later).toBeChecked();
        if (method === 'paypal') {
          await form.paypal.check();
          await form.paypalEmail.fill('ana.payouts@example.com');
        }
        if (method === 'bank_transfer') {
          await form.bank.check();
          await fillBank(form);
        }
        const termsLink = page.getByRole('link', { name: new RegExp(auth.signup.termsLink) });
        await expect(termsLink).toHaveAttribute('href', '/affiliate/terms');
        await expect(termsLink).toHaveAttribute('target', '_blank');
        await expect(termsLink).toHaveAttribute('rel', /noopener/);
        await form.terms.check();
        await form.submit.click();
        await expect(page).toHaveURL(DASHBOARD_URL);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      });
    }

    test(`signup (${lang}) shows every validation message in the red banner and keeps what was typed`, async ({
      page,
    }) => {
      const form = await openSignup(page, lang);
      // Step 1: the three keys of docs/product/rules-and-constants.md#validation.
      await form.next.click();
      await expect(form.alert).toHaveText(auth.errors.allFieldsRequired);
      await expect(form.alert).toBeFocused();
      await form.email.fill(uniqueEmail('validation'));
      await form.password.fill('correct-horse-1');
      await form.confirmPassword.fill('correct-horse-2');
      await form.next.click();
      await expect(form.alert).toHaveText(auth.errors.passwordMismatch);
      await expect(form.confirmPassword).toHaveAttribute('aria-invalid', 'true');
      await form.password.fill('short');
      await form.confirmPassword.fill('short');
      await form.next.click();
      await expect(form.alert).toHaveText(message(auth.errors.passwordTooShort));
      await expect(form.password).toHaveAttribute('aria-invalid', 'true');
      // Every error of the step at once, not one at a time: each field marked, one item per message.
      await form.email.fill('ana@');
      await form.confirmPassword.fill('shorter');
      await form.next.click();
      await expect(form.alert.getByText(fill(auth.signup.errorsTitle_other, { count: 3 }))).toBeVisible();
      await expect(form.alert.getByRole('listitem')).toHaveText([
        auth.errors.passwordMismatch,
        message(auth.errors.passwordTooShort),
        auth.errors.emailInvalid,
      ]);
      await expect(form.alert).toBeFocused();
      for (const input of [form.email, form.password, form.confirmPassword])
        await expect(input).toHaveAttribute('aria-invalid', 'true');
      await form.email.fill(uniqueEmail('validation'));
      await form.password.fill('correct-horse-1');
      await form.confirmPassword.fill('correct-horse-1');
      await form.next.click();
      await expectStep(form, lang, 2);
      await expect(form.alert).toHaveCount(0);

      // Names are required (checked before leaving the profile step, and again on submit).
      await form.next.click();
      await expect(form.alert).toHaveText(auth.errors.namesRequired);
      await expect(form.firstName).toHaveAttribute('aria-invalid', 'true');
      await form.firstName.fill('Ana');
      await form.lastName.fill('Martin');
      await form.next.click();
      await expectStep(form, lang, 3);

      // Final step: PayPal e-mail and terms at once, then bank information, IBAN length, IBAN checksum, BIC, terms.
      await form.paypal.check();
      await form.submit.click();
      await expect(form.alert.getByRole('listitem')).toHaveText([
        payment.errors['paypal-email-required'],
        auth.errors.termsRequired,
      ]);
      await expect(form.paypalEmail).toHaveAttribute('aria-invalid', 'true');
      await expect(form.terms).toHaveAttribute('aria-invalid', 'true');
      // Another method: its errors go, the terms' stays.
      await form.bank.check();
      await expect(form.alert).toHaveText(auth.errors.termsRequired);
      await form.terms.check();
      await form.submit.click();
      const bankLabels = [
        payment.fields.accountHolder,
        payment.fields.bankName,
        payment.fields.bankIban,
        payment.fields.bic,
      ];
      await expect(form.alert).toContainText(payment.errors['bank-details-required'].split(':')[0]);
      for (const label of bankLabels) await expect(form.alert).toContainText(label);
      await fillBank(form, { iban: 'FR76 3000 6000' });
      await form.submit.click();
      await expect(form.alert).toHaveText(payment.errors['invalid-iban']);
      await expect(form.iban).toHaveAttribute('aria-invalid', 'true');
      await form.iban.fill('FR76 3000 6000 0112 3456 7890 188');
      await form.submit.click();
      await expect(form.alert).toHaveText(payment.errors['invalid-iban-checksum']);
      await form.iban.fill(VALID_IBAN);
      await form.bic.fill('BNPA');
      await form.submit.click();
      await expect(form.alert).toHaveText(payment.errors['invalid-bic']);
      await expect(form.bic).toHaveAttribute('aria-invalid', 'true');
      await form.bic.fill(VALID_BIC);
      await form.terms.uncheck();
      await form.submit.click();
      await expect(form.alert).toHaveText(auth.errors.termsRequired);
      await expect(form.terms).toHaveAttribute('aria-invalid', 'true');
      // Nothing typed was lost on the way.
      await expect(form.accountHolder).toHaveValue('Ana Martin');
      await expect(form.iban).toHaveValue(VALID_IBAN);
      await form.back.click();
      await expect(form.firstName).toHaveValue('Ana');
      await expect(form.lastName).toHaveValue('Martin');
    });

    test(`signup (${lang}): Back returns a step and clears the message`, async ({ page }) => {
      const form = await openSignup(page, lang);
      await fillAccountStep(form, uniqueEmail('back'));
      await form.next.click();
      await expect(form.alert).toHaveText(auth.errors.namesRequired);
      await form.back.click();
      await expectStep(form, lang, 1);
      await expect(form.alert).toHaveCount(0);
      await expect(form.heading).toBeFocused();
      await expect(form.confirmPassword).toHaveValue('correct-horse-1');
    });

    test(`signup (${lang}) with an e-mail already taken goes back to step 1 with its own message`, async ({
      page,
      request,
    }) => {
      const existing = await createAffiliateAccount(request);
      const form = await openSignup(page, lang);
      await fillAccountStep(form, existing.email);
      await fillProfileStep(form);
      await form.terms.check();
      await form.submit.click();
      await expect(form.alert).toHaveText(auth.errors.emailTaken);
      await expectStep(form, lang, 1);
      await expect(form.email).toHaveAttribute('aria-invalid', 'true');
      await expect(form.email).toHaveValue(existing.email);
      await expect(form.password).toHaveValue('correct-horse-1');
      await expect(page).toHaveURL(/\/affiliate\/signup/);
    });

    test(`signup (${lang}): Create account shows its busy label and is disabled while the account is created`, async ({
      page,
    }) => {
      const form = await openSignup(page, lang);
      await fillAccountStep(form, uniqueEmail('busy'));
      await fillProfileStep(form);
      await form.terms.check();
      // Hold the answer until the busy state has been seen.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/fn/createAffiliate', async (route) => {
        await held;
        await route.continue();
      });
      await form.submit.click();
      const busy = page.getByRole('button', { name: auth.signup.submitting });
      await expect(busy).toBeDisabled();
      release();
      await expect(page).toHaveURL(DASHBOARD_URL);
    });

    test(`login (${lang}) requires both fields, then reports a wrong password and an unknown address`, async ({
      page,
      request,
    }) => {
      const account = await createAffiliateAccount(request);
      const form = await openLogin(page, lang);
      const alert = page.getByRole('alert');
      await form.submit.click();
      await expect(alert).toHaveText(auth.errors.loginRequired);
      await form.email.fill(account.email);
      await form.password.fill('not-the-password');
      await form.submit.click();
      await expect(alert).toHaveText(login.errors.invalidCredentials);
      await expect(form.email).toHaveValue(account.email);
      await form.email.fill(uniqueEmail('nobody'));
      await form.submit.click();
      await expect(alert).toHaveText(login.errors.invalidCredentials);
    });

    test(`login (${lang}) shows the busy label, opens the dashboard, and sends a signed-in visitor there`, async ({
      page,
      request,
    }) => {
      const account = await createAffiliateAccount(request);
      const form = await openLogin(page, lang);
      await form.email.fill(account.email);
      await form.password.fill(account.password);
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/auth/sign-in/email', async (route) => {
        await held;
        await route.continue();
      });
      await form.submit.click();
      await expect(page.getByRole('button', { name: login.submitting })).toBeDisabled();
      release();
      await expect(page).toHaveURL(DASHBOARD_URL);
      await page.goto('/affiliate/login');
      await expect(page).toHaveURL(DASHBOARD_URL);
    });

    test(`login (${lang}) keeps what was typed before the form's script had loaded`, async ({ page, request }) => {
      const account = await createAffiliateAccount(request);
      // The form's chunk is held, as on a slow connection: the visitor meets the prerendered form,
      // and the session is read (an update above the form) before the chunk arrives.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/login-form-[^/]*\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      const sessionRead = page.waitForResponse(/\/api\/auth\/get-session/);
      await page.goto(`/affiliate/login?lang=${lang}`, { waitUntil: 'commit' });
      const form = loginForm(page, lang);
      await form.email.fill(account.email);
      await sessionRead;
      await expect(form.submit).toBeDisabled();
      release();
      await expect(form.submit).toBeEnabled();
      // The same input, hydrated in place: the address is still there, and counts.
      await expect(form.email).toBeFocused();
      await form.password.fill(account.password);
      await expect(form.email).toHaveValue(account.email);
      await form.submit.click();
      await expect(page).toHaveURL(DASHBOARD_URL);
    });

    test(`login (${lang}) refuses a disabled account`, async ({ page }) => {
      const form = await openLogin(page, lang);
      await form.email.fill(SEED_ACCOUNTS.disabled.email);
      await form.password.fill(SEED_ACCOUNTS.disabled.password);
      await form.submit.click();
      await expect(page.getByRole('alert')).toHaveText(login.errors.disabled);
      await expect(page).toHaveURL(/\/affiliate\/login/);
    });

    test(`login (${lang}) stops an address after 10 failed attempts in an hour`, async ({ page }) => {
      const form = await openLogin(page, lang);
      const alert = page.getByRole('alert');
      await form.email.fill(uniqueEmail('limited'));
      await form.password.fill('wrong-password');
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const answered = page.waitForResponse((response) => response.url().endsWith('/api/auth/sign-in/email'));
        await form.submit.click();
        expect((await answered).status(), `attempt ${attempt}`).toBe(401);
        await expect(alert).toHaveText(login.errors.invalidCredentials);
        await expect(form.submit).toBeEnabled();
      }
      await form.submit.click();
      // The lock's message names the way out (a password reset).
      await expect(alert).toHaveText(login.errors.addressLocked);
    });

    test(`login (${lang}): an owner locked out by someone else's attempts gets back in with a password reset`, async ({
      page,
      request,
    }) => {
      const account = await createAffiliateAccount(request, { language: lang });
      // Someone else guesses the password ten times.
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const guess = await request.post('/api/auth/sign-in/email', {
          headers: { origin: BASE_URL },
          data: { email: account.email, password: `guess number ${attempt}` },
        });
        expect(guess.status(), `guess ${attempt}`).toBe(401);
      }
      // The owner's right password is refused, with the way out.
      const form = await openLogin(page, lang);
      await form.email.fill(account.email);
      await form.password.fill(account.password);
      await form.submit.click();
      await expect(page.getByRole('alert')).toHaveText(login.errors.addressLocked);

      await form.forgot.click();
      await expect(page).toHaveURL(/\/affiliate\/reset-password$/);
      const requestedAt = Date.now();
      await page.getByRole('button', { name: auth.reset.request.submit }).click();
      await expect(page.getByRole('status')).toContainText(account.email);
      await page.goto(await resetLinkFor(account.email, { after: requestedAt - 1000 }));
      const choose = auth.reset.choose;
      const newPassword = 'back-in-after-a-lock';
      await page.getByLabel(choose.password, { exact: true }).fill(newPassword);
      await page.getByLabel(choose.confirmPassword, { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: choose.submit }).click();
      await expect(page.getByRole('status')).toHaveText(choose.done);
      // Unlocked at once: no waiting for the hour to end.
      await logIn(page, { email: account.email, password: newPassword }, lang);
    });

    test(`the login links (${lang}): create an account, back to the programme`, async ({ page }) => {
      await openLogin(page, lang);
      await page.getByRole('link', { name: login.signup }).click();
      await expect(page).toHaveURL(/\/affiliate\/signup$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(auth.signup.title);
      await page.getByRole('link', { name: auth.signup.login }).click();
      await expect(page).toHaveURL(/\/affiliate\/login$/);
      await page.getByRole('main').getByRole('link', { name: login.back }).click();
      await expect(page).toHaveURL(/\/affiliate$/);
    });

    test(`password reset (${lang}) end to end: link by e-mail, new password, log in with it`, async ({
      page,
      request,
    }) => {
      const account = await createAffiliateAccount(request, { language: lang });
      const form = await openLogin(page, lang);
      await form.email.fill(account.email);
      await form.forgot.click();
      await expect(page).toHaveURL(/\/affiliate\/reset-password$/);
      const email = page.getByLabel(auth.fields.email, { exact: true });
      await expect(email).toHaveValue(account.email);
      const requestedAt = Date.now();
      await page.getByRole('button', { name: auth.reset.request.submit }).click();
      await expect(page.getByRole('status')).toContainText(account.email);

      const link = await resetLinkFor(account.email, { after: requestedAt - 1000 });
      await page.goto(link);
      const newPassword = 'a-brand-new-password';
      const choose = auth.reset.choose;
      await page.getByLabel(choose.password, { exact: true }).fill(newPassword);
      await page.getByLabel(choose.confirmPassword, { exact: true }).fill('a-different-password');
      await page.getByRole('button', { name: choose.submit }).click();
      await expect(page.getByRole('alert')).toHaveText(auth.errors.passwordMismatch);
      await page.getByLabel(choose.confirmPassword, { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: choose.submit }).click();
      await expect(page.getByRole('status')).toHaveText(choose.done);

      // The link works once.
      await page.goto(link);
      await page.getByLabel(choose.password, { exact: true }).fill('yet-another-password');
      await page.getByLabel(choose.confirmPassword, { exact: true }).fill('yet-another-password');
      await page.getByRole('button', { name: choose.submit }).click();
      await expect(page.getByRole('alert')).toHaveText(choose.invalidToken);
      await page.getByRole('button', { name: choose.requestNew }).click();
      await expect(page.getByRole('button', { name: auth.reset.request.submit })).toBeVisible();

      // The old password no longer works; the new one does.
      const again = await openLogin(page, lang);
      await again.email.fill(account.email);
      await again.password.fill(account.password);
      await again.submit.click();
      await expect(page.getByRole('alert')).toHaveText(login.errors.invalidCredentials);
      await logIn(page, { email: account.email, password: newPassword }, lang);
    });

    test(`password reset (${lang}) answers the same for an address without an account`, async ({ page }) => {
      await page.goto(`/affiliate/reset-password?lang=${lang}`);
      const submit = page.getByRole('button', { name: auth.reset.request.submit });
      await submit.click();
      await expect(page.getByRole('alert')).toHaveText(auth.errors.emailRequired);
      const nobody = uniqueEmail('nobody');
      await page.getByLabel(auth.fields.email, { exact: true }).fill(nobody);
      await submit.click();
      await expect(page.getByRole('status')).toContainText(nobody);
    });

    test(`logout (${lang}) signs out and goes to login; the dashboard then redirects there`, async ({ page }) => {
      await signUpViaApi(page, { language: lang });
      await page.goto(`/affiliate/dashboard?lang=${lang}`);
      await expect(page).toHaveURL(DASHBOARD_URL);
      await page.getByRole('button', { name: strings(lang, 'dashboard').header.logout }).click();
      await expect(page).toHaveURL(/\/affiliate\/login$/);
      await expect(loginForm(page, lang).submit).toBeVisible();
      await page.goto('/affiliate/dashboard');
      await expect(page).toHaveURL(/\/affiliate\/login$/);
    });

    test(`a signed-out visitor opening the dashboard (${lang}) is sent to the login page`, async ({ page }) => {
      await page.goto(`/affiliate/dashboard?lang=${lang}`);
      await expect(page).toHaveURL(/\/affiliate\/login$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(login.title);
    });

    test(`signup (${lang}) can be completed with the keyboard alone`, async ({ page }) => {
      const form = await openSignup(page, lang);
      const affiliate = newAffiliate();
      const keyboard = page.keyboard;
      await tabTo(page, form.email);
      await keyboard.type(affiliate.email);
      await keyboard.press('Tab');
      await expect(form.password).toBeFocused();
      await keyboard.type(affiliate.password);
      await tabTo(page, form.confirmPassword);
      await keyboard.type(affiliate.password);
      await keyboard.press('Enter');
      await expectStep(form, lang, 2);
      await keyboard.press('Tab');
      await expect(form.firstName).toBeFocused();
      await keyboard.type(affiliate.firstName);
      await keyboard.press('Tab');
      await keyboard.type(affiliate.lastName);
      await keyboard.press('Enter');
      await expectStep(form, lang, 3);
      await tabTo(page, form.terms);
      await keyboard.press('Space');
      await expect(form.terms).toBeChecked();
      await tabTo(page, form.submit);
      await keyboard.press('Enter');
      await expect(page).toHaveURL(DASHBOARD_URL);
    });
  });
}
