import { type Page, expect, test } from '@playwright/test';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { BASE_URL } from '../playwright.config';
import { createAffiliateAccount } from './helpers/affiliate';
import { expectNoAxeViolations } from './helpers/axe';
import { type Lang, fill, strings } from './helpers/i18n';
import { expectHealthy, watchPageHealth } from './helpers/page-health';
import { SEED_OPERATOR } from './helpers/seed-accounts';
import { signedWith, startWebhookReceiver } from './helpers/webhook-receiver';

// Outgoing webhooks in the console (docs/product/webhooks.md), in both languages, as an operator
// uses them: a URL that is not one is refused on its field; an endpoint pointing at a receiver this
// test runs is registered and its secret shown once; an affiliate's signup reaches the receiver,
// signed with that secret; the delivery log shows it delivered, and sends it again on request; the
// endpoint is deleted after a confirmation. The tab passes axe; the page reports no CSP, console or
// hydration error. (The test server allows a receiver on this machine: playwright.config.ts.)

const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-US' };

async function openWebhooksAsOperator(page: Page, lang: Lang) {
  const admin = strings(lang, 'admin');
  const auth = strings(lang, 'auth');
  await page.goto(`/admin?lang=${lang}#webhooks`);
  const form = page.getByRole('form', { name: admin.signIn.title });
  await form.getByLabel(auth.fields.email, { exact: true }).fill(SEED_OPERATOR.email);
  await form.getByLabel(auth.fields.password, { exact: true }).fill(SEED_OPERATOR.password);
  await form.getByRole('button', { name: admin.signIn.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: admin.header.title })).toBeVisible();
  await expect(page.getByRole('tab', { name: admin.tabs.webhooks })).toHaveAttribute('aria-selected', 'true');
}

for (const lang of ['fr', 'en'] as const) {
  test.describe(`webhooks in the console (${lang})`, () => {
    test.use({ locale: LOCALES[lang] });
    const hooks = strings(lang, 'webhooks');

    test.beforeEach(async ({ context }) => {
      await context.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: BASE_URL }]);
    });

    test('registers an endpoint, delivers a signed event to it, shows and replays the delivery, deletes it', async ({
      page,
      request,
    }) => {
      test.setTimeout(60_000);
      const receiver = await startWebhookReceiver();
      try {
        const health = await watchPageHealth(page);
        await openWebhooksAsOperator(page, lang);
        const add = page.getByRole('region', { name: hooks.form.addTitle });
        const url = add.getByLabel(hooks.form.url, { exact: true });

        // A URL that is not one: refused on its field, in the page's language; nothing registered.
        await url.fill('not a url');
        await add.getByRole('checkbox', { name: /affiliate\.applied/ }).check();
        await add.getByRole('button', { name: hooks.form.submit }).click();
        await expect(add.getByText(hooks.form.errors.urlInvalid)).toBeVisible();
        await expect(url).toHaveAttribute('aria-invalid', 'true');
        await expect(url).toBeFocused();

        // The receiver's URL: registered, its secret shown once.
        await url.fill(receiver.url);
        await add.getByLabel(hooks.form.description).fill(`e2e ${lang}`);
        await add.getByRole('button', { name: hooks.form.submit }).click();
        const secretPanel = page.getByRole('region', { name: fill(hooks.secret.title, { url: receiver.url }) });
        await expect(secretPanel).toBeVisible();
        const secret = await secretPanel.getByLabel(hooks.secret.label).inputValue();
        expect(secret).toMatch(/^whsec_/);
        await expectNoAxeViolations(page, `webhooks tab with a new secret (${lang})`);
        await secretPanel.getByRole('button', { name: hooks.secret.done }).click();
        await expect(secretPanel).toBeHidden();
        const endpoint = page.getByRole('article', { name: receiver.url });
        await expect(endpoint.getByText(hooks.endpoints.enabled, { exact: true })).toBeVisible();

        // An affiliate signs up: the receiver gets affiliate.applied, signed with that secret.
        await createAffiliateAccount(request, { language: lang });
        await expect
          .poll(() => receiver.received.filter((r) => r.event.type === 'affiliate.applied').length)
          .toBeGreaterThan(0);
        const delivered = receiver.received.find((r) => r.event.type === 'affiliate.applied')!;
        expect(signedWith(secret, delivered)).toBe(true);
        expect(delivered.headers['skanova-event-id']).toBe(delivered.event.id);
        const affiliateId = delivered.event.data.affiliateId!;

        // The delivery log shows it delivered; it can be sent again.
        const log = page.getByRole('region', { name: hooks.deliveries.title });
        await log.getByLabel(hooks.deliveries.endpoint).selectOption({ label: `e2e ${lang} (${receiver.url})` });
        const row = log.getByRole('row').filter({ hasText: fill(hooks.deliveries.affiliate, { id: affiliateId }) });
        await expect(async () => {
          await log.getByRole('button', { name: hooks.deliveries.refresh }).click();
          await expect(row.getByText(hooks.deliveries.statuses.delivered, { exact: true })).toBeVisible({
            timeout: 1000,
          });
        }).toPass({ timeout: 15_000 });
        await expect(row.getByText(fill(hooks.deliveries.results.ok, { status: 204 }), { exact: true })).toBeVisible();
        await expectNoAxeViolations(page, `webhooks tab with a delivery (${lang})`);
        const before = receiver.received.filter((r) => r.event.id === delivered.event.id).length;
        await row.getByRole('button', { name: new RegExp(hooks.deliveries.replay) }).click();
        await expect(log.getByText(hooks.deliveries.replayed)).toBeVisible();
        await expect
          .poll(() => receiver.received.filter((r) => r.event.id === delivered.event.id).length)
          .toBe(before + 1);

        // Deleted after a confirmation.
        await endpoint.getByRole('button', { name: new RegExp(`^${hooks.endpoints.actions.delete}`) }).click();
        const confirm = page.getByRole('region', {
          name: fill(hooks.endpoints.confirm.delete.title, { url: receiver.url }),
        });
        await confirm.getByRole('button', { name: hooks.endpoints.actions.delete }).click();
        await expect(page.getByText(hooks.endpoints.notices.deleted)).toBeVisible();
        await expect(page.getByRole('article', { name: receiver.url })).toHaveCount(0);
        expectHealthy(health, `/admin#webhooks (${lang})`);
      } finally {
        await receiver.close();
      }
    });
  });
}
