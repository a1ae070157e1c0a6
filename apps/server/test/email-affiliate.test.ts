import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  applicationDecisionEmail,
  conversionEmail,
  inactivityWarningEmail,
  loadEmailRecipient,
  payoutSentEmail,
  welcomeEmail,
} from '../src/email/affiliate-messages.ts';
import { outboxIdle } from '../src/email/outbox-worker.ts';
import type { MailMessage } from '../src/lib/mailer.ts';
import { type TestApp, TEST_PUBLIC_URL, createTestApp, memoryMailer, testConfig } from './helpers/app.ts';
import { callFn, createTestAffiliate, signupPayload } from './helpers/affiliates.ts';
import { outboxRows } from './helpers/email.ts';

// The programme's e-mails to affiliates (docs/product/rules-and-constants.md#e-mails): the welcome e-mail is queued in the signup
// transaction (it exists exactly when the account does) and sent at once; every message is in the
// affiliate's language, with text and HTML parts, the brand from configuration and a link back.

const mail = memoryMailer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mailer: mail.mailer });
});
afterAll(() => t.close());
beforeEach(async () => {
  await outboxIdle(t.context);
  mail.sent.length = 0;
});

const sentTo = (address: string) => mail.sent.filter((message) => message.to === address);

describe('the welcome e-mail', () => {
  it('is queued with the signup and sent before the answer, in the language chosen (en)', async () => {
    const affiliate = await createTestAffiliate(t, { language: 'en', firstName: 'Grace' });
    const [message] = sentTo(affiliate.email);
    expect(message?.subject).toBe('Welcome to the Skanova affiliate programme');
    expect(message?.text).toContain('Hello Grace,');
    expect(message?.text).toContain(`${TEST_PUBLIC_URL}/affiliate/dashboard?lang=en`);
    expect(message?.text).toContain('$20.00');
    expect(message?.html).toContain('<html lang="en">');
    expect(message?.html).toContain(`href="${TEST_PUBLIC_URL}/affiliate/dashboard?lang=en"`);

    await outboxIdle(t.context);
    const rows = await outboxRows(t, { to: affiliate.email });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'welcome', dedupe_key: `welcome:${affiliate.affiliateId}`, attempts: 1 });
    expect(rows[0]?.sent_at).not.toBeNull();
  });

  it('is in French for a French signup', async () => {
    const affiliate = await createTestAffiliate(t, { language: 'fr', firstName: 'Marie' });
    const [message] = sentTo(affiliate.email);
    expect(message?.subject).toBe("Bienvenue dans le programme d'affiliation Skanova");
    expect(message?.text).toContain('Bonjour Marie,');
    expect(message?.text).toContain('20,00');
    expect(message?.html).toContain('<html lang="fr">');
  });

  it('does not exist when the signup rolls back', async () => {
    // The payment method is written after the welcome e-mail, in the same transaction: make it fail.
    await t.database.sql.exec(`
      CREATE FUNCTION refuse_test_paypal() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.paypal_email = 'refused@paypal.example' THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_test_paypal BEFORE INSERT ON payment_methods FOR EACH ROW EXECUTE FUNCTION refuse_test_paypal();
    `);
    try {
      const payload = signupPayload({
        paymentMethod: 'paypal',
        paymentDetails: { paypalEmail: 'refused@paypal.example' },
      });
      const response = await callFn(t, 'createAffiliate', payload, undefined, '10.77.0.1');
      expect(response.status).toBe(500);
      await outboxIdle(t.context);
      const email = String(payload.email);
      expect((await t.database.sql.query('SELECT 1 FROM auth_users WHERE email = $1', [email])).rows).toHaveLength(0);
      expect(await outboxRows(t, { to: email })).toEqual([]);
      expect(sentTo(email)).toEqual([]);
    } finally {
      await t.database.sql.exec(
        'DROP TRIGGER refuse_test_paypal ON payment_methods; DROP FUNCTION refuse_test_paypal();',
      );
    }
  });

  it('rolls the signup back when it cannot be queued (no account without its e-mail)', async () => {
    await t.database.sql.exec(`
      CREATE FUNCTION refuse_test_welcome() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.to_address LIKE 'unwelcome-%' THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_test_welcome BEFORE INSERT ON email_outbox FOR EACH ROW EXECUTE FUNCTION refuse_test_welcome();
    `);
    try {
      const payload = signupPayload({ email: `unwelcome-${Date.now()}@example.com` });
      const response = await callFn(t, 'createAffiliate', payload, undefined, '10.77.0.2');
      expect(response.status).toBe(500);
      expect(
        (await t.database.sql.query('SELECT 1 FROM auth_users WHERE email = $1', [payload.email])).rows,
      ).toHaveLength(0);
      expect(
        (
          await t.database.sql.query(
            "SELECT 1 FROM affiliates WHERE first_name = 'Ada' AND user_id IS NULL AND deleted_at IS NULL",
          )
        ).rows,
      ).toHaveLength(0);
    } finally {
      await t.database.sql.exec(
        'DROP TRIGGER refuse_test_welcome ON email_outbox; DROP FUNCTION refuse_test_welcome();',
      );
    }
  });

  it('tells a pending applicant that the application is under review (manual approval)', async () => {
    const manualMail = memoryMailer();
    const manual = await createTestApp({ mailer: manualMail.mailer, env: { AFFILIATE_APPROVAL: 'manual' } });
    try {
      const affiliate = await createTestAffiliate(manual, { language: 'en' });
      const [message] = manualMail.sent.filter((sent) => sent.to === affiliate.email);
      expect(message?.subject).toBe('Welcome to the Skanova affiliate programme');
      expect(message?.text).toContain('reviews each application');
      expect(message?.text).toContain(`${TEST_PUBLIC_URL}/affiliate/login?lang=en`);
      expect(message?.text).not.toContain('/affiliate/dashboard');
      await outboxIdle(manual.context);
    } finally {
      await manual.close();
    }
  });
});

describe('loadEmailRecipient', () => {
  it('answers the sign-in address, language, first name and notification choices', async () => {
    const affiliate = await createTestAffiliate(t, { language: 'fr', firstName: 'Léa' });
    await t.database.sql.query('UPDATE affiliates SET notify_conversions = false WHERE id = $1', [
      affiliate.affiliateId,
    ]);
    expect(await loadEmailRecipient(t.database, affiliate.affiliateId)).toEqual({
      email: affiliate.email,
      language: 'fr',
      firstName: 'Léa',
      notifyConversions: false,
      notifyPayments: true,
    });
  });

  it('answers null for a deleted profile, and for an unknown one', async () => {
    const affiliate = await createTestAffiliate(t);
    const deleted = await callFn(t, 'deleteAffiliateAccount', { password: affiliate.password }, affiliate.cookie);
    expect(deleted.status).toBe(200);
    expect(await loadEmailRecipient(t.database, affiliate.affiliateId)).toBeNull();
    expect(await loadEmailRecipient(t.database, 'no-such-affiliate')).toBeNull();
  });
});

describe('the messages', () => {
  // Another brand proves that no text writes it literally.
  const app = { config: testConfig({ BRAND_NAME: 'Acme Skin' }) };
  const en = { email: 'ada@example.com', language: 'en' as const, firstName: 'Ada' };
  const fr = { email: 'ada@example.com', language: 'fr' as const, firstName: null };

  function expectWellFormed(message: MailMessage) {
    expect(`${message.subject}${message.text}${message.html}`).not.toMatch(/\{\{|\}\}|Skanova/);
    expect(message.text).toContain('Acme Skin');
    expect(message.html).toMatch(/^<!doctype html>/);
    expect(message.to).toBe('ada@example.com');
  }

  it('announces a conversion with its commission in the language of the affiliate', () => {
    const english = conversionEmail(app, en, {
      code: 'K7M2QX4P',
      commissionCents: 400,
      rateTier: 'premium',
      holdDays: 30,
    });
    expectWellFormed(english);
    expect(english.subject).toBe('New commission: $4.00 with Acme Skin');
    expect(english.text).toContain('K7M2QX4P');
    expect(english.text).toContain('30 days');
    expect(english.text).toContain('premium rate');
    const french = conversionEmail(app, fr, {
      code: 'K7M2QX4P',
      commissionCents: 200,
      rateTier: 'standard',
      holdDays: 14,
    });
    expectWellFormed(french);
    expect(french.subject).toBe('Nouvelle commission : 2,00\u00a0$US avec Acme Skin');
    expect(french.text).toContain('Bonjour,');
    expect(french.text).not.toContain('premium');
    expect(french.text).toContain('14 jours');
  });

  it('announces a payout, with the euro amount of a SEPA transfer', () => {
    const paypal = payoutSentEmail(app, en, {
      amountCents: 2550,
      currency: 'USD',
      amountPaidCents: null,
      paidCurrency: null,
      method: 'paypal',
      payday: '2025-07-15',
    });
    expectWellFormed(paypal);
    expect(paypal.subject).toBe('Your Acme Skin payout of $25.50 is on its way');
    expect(paypal.text).toContain('July 15, 2025');
    expect(paypal.text).toContain('PayPal');
    const sepa = payoutSentEmail(app, fr, {
      amountCents: 2550,
      currency: 'USD',
      amountPaidCents: 2345,
      paidCurrency: 'EUR',
      method: 'bank_transfer',
      payday: '2025-07-15',
    });
    expectWellFormed(sepa);
    expect(sepa.text).toContain('15 juillet 2025');
    expect(sepa.text).toContain('23,45\u00a0€');
    expect(sepa.text).toContain('25,50\u00a0$US');
    expect(sepa.text).toContain('virement');
  });

  it('announces the application decision', () => {
    const approved = applicationDecisionEmail(app, en, { decision: 'approved' });
    expectWellFormed(approved);
    expect(approved.text).toContain('/affiliate/dashboard?lang=en');
    const refused = applicationDecisionEmail(app, fr, { decision: 'refused' });
    expectWellFormed(refused);
    expect(refused.text).toContain(app.config.SUPPORT_EMAIL);
    expect(refused.text).not.toContain('/affiliate/dashboard');
  });

  it('warns of the deletion of an inactive account with its date', () => {
    const english = inactivityWarningEmail(app, en, { deletionDate: '2026-08-01' });
    expectWellFormed(english);
    expect(english.subject).toBe('Your Acme Skin affiliate account will be deleted on August 1, 2026');
    expect(english.text).toContain('/affiliate/login?lang=en');
    const french = inactivityWarningEmail(app, fr, { deletionDate: '2026-08-01' });
    expect(french.subject).toBe('Votre compte affilié Acme Skin sera supprimé le 1er août 2026');
  });

  it('welcomes with the dashboard link', () => {
    expectWellFormed(welcomeEmail(app, en, { status: 'active' }));
    expectWellFormed(welcomeEmail(app, fr, { status: 'pending' }));
  });
});
