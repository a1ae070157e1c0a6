import { maskIban } from '@skanova/shared/affiliate/bank';
import { PROFILE_LIMITS } from '@skanova/shared/affiliate/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, memoryMailer } from './helpers/app.ts';
import { callFn, createTestAffiliate } from './helpers/affiliates.ts';

// getAffiliatePaymentMethod and updateAffiliatePaymentMethod (docs/product/rules-and-constants.md#validation, docs/product/calls-and-data.md#server-functions, docs/product/messages.md#payment-update-messages;
// docs/product/rules-and-constants.md#referral-codes, docs/product/rules-and-constants.md#validation): the form's validation on the server with its detail codes, IBAN and BIC encrypted
// at rest, the IBAN masked in answers, every change audit-logged and e-mailed to the account.

const IBAN = 'FR76 3000 6000 0112 3456 7890 189';
const IBAN_COMPACT = 'FR7630006000011234567890189';
const BANK = { bankName: 'BNP Paribas', bankIban: IBAN, bic: 'bnpa frpp', accountHolder: 'Ada Lovelace' };

const mail = memoryMailer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mailer: mail.mailer });
});
afterAll(() => t.close());

async function storedRow(affiliateId: string) {
  const { rows } = await t.database.sql.query<Record<string, string | null>>(
    'SELECT * FROM payment_methods WHERE affiliate_id = $1',
    [affiliateId],
  );
  return rows[0];
}

async function auditLines(affiliateId: string) {
  const { rows } = await t.database.sql.query<{ actor: string; action: string; details: unknown }>(
    "SELECT actor, action, details FROM audit_log WHERE subject = $1 AND action = 'payment_method.updated' ORDER BY id",
    [affiliateId],
  );
  return rows;
}

const update = (cookie: string, paymentMethod: unknown, paymentDetails: unknown) =>
  callFn(t, 'updateAffiliatePaymentMethod', { paymentMethod, paymentDetails }, cookie);

describe('getAffiliatePaymentMethod', () => {
  it('answers "not configured" when signup chose later', async () => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(t, 'getAffiliatePaymentMethod', null, affiliate.cookie);
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ success: true, paymentMethod: { type: null, configured: false } });
  });

  it('answers the bank method of signup with the IBAN masked except its last 4', async () => {
    const affiliate = await createTestAffiliate(t, { paymentMethod: 'bank_transfer', paymentDetails: BANK });
    const response = await callFn(t, 'getAffiliatePaymentMethod', {}, affiliate.cookie);
    expect(response.status).toBe(200);
    const method = response.body.result.paymentMethod;
    expect(method).toMatchObject({
      type: 'bank_transfer',
      configured: true,
      bankName: 'BNP Paribas',
      accountHolder: 'Ada Lovelace',
      bic: 'BNPAFRPP',
    });
    expect(method.ibanMasked).toBe(maskIban(IBAN_COMPACT));
    expect(method.ibanMasked.replace(/[^A-Z0-9]/g, '')).toBe('0189');
    expect(JSON.stringify(response.body)).not.toContain('30006');
  });
});

describe('updateAffiliatePaymentMethod', () => {
  it('stores PayPal, logs it, e-mails the account in its language and answers the summary', async () => {
    const affiliate = await createTestAffiliate(t, { language: 'fr' });
    mail.sent.length = 0;
    const response = await update(affiliate.cookie, 'paypal', { paypalEmail: '  ada@paypal.example  ' });
    expect(response.status).toBe(200);
    expect(response.body.result).toMatchObject({
      success: true,
      paymentMethod: { type: 'paypal', configured: true, paypalEmail: 'ada@paypal.example' },
    });
    expect(new Date(response.body.result.paymentMethod.updatedAt).getTime()).toBe(t.clock.now.getTime());
    expect((await callFn(t, 'getAffiliatePaymentMethod', null, affiliate.cookie)).body.result.paymentMethod).toEqual(
      response.body.result.paymentMethod,
    );

    expect(await auditLines(affiliate.affiliateId)).toEqual([
      {
        actor: expect.any(String),
        action: 'payment_method.updated',
        details: { type: 'paypal', previousType: null, ibanLast4: null },
      },
    ]);
    const message = mail.sent.find((sent) => sent.to === affiliate.email);
    expect(message?.subject).toBe('Votre moyen de paiement Skanova a été modifié');
    expect(message?.text).toContain('PayPal (ada@paypal.example)');
  });

  it('replaces PayPal by a bank account, encrypted at rest, and never shows the IBAN', async () => {
    const affiliate = await createTestAffiliate(t, {
      language: 'en',
      paymentMethod: 'paypal',
      paymentDetails: { paypalEmail: 'ada@paypal.example' },
    });
    mail.sent.length = 0;
    // `iban` is read as well as `bankIban` (docs/product/calls-and-data.md#data-model).
    const response = await update(affiliate.cookie, 'bank_transfer', {
      bankName: ' BNP Paribas ',
      iban: IBAN,
      bic: 'BNPAFRPPXXX',
      accountHolder: 'Ada Lovelace',
    });
    expect(response.status).toBe(200);
    const method = response.body.result.paymentMethod;
    expect(method).toMatchObject({
      type: 'bank_transfer',
      configured: true,
      bankName: 'BNP Paribas',
      accountHolder: 'Ada Lovelace',
      bic: 'BNPAFRPPXXX',
    });
    expect(method.ibanMasked).toBe(maskIban(IBAN_COMPACT));

    const row = await storedRow(affiliate.affiliateId);
    expect(row).toMatchObject({ type: 'bank_transfer', paypal_email: null, iban_last4: '0189' });
    expect(row?.iban_encrypted).toMatch(/^v1:/);
    expect(row?.iban_encrypted).not.toContain('3000');
    expect(row?.bic_encrypted).not.toContain('BNPA');

    const [line] = await auditLines(affiliate.affiliateId);
    expect(line?.details).toEqual({ type: 'bank_transfer', previousType: 'paypal', ibanLast4: '0189' });
    const message = mail.sent.find((sent) => sent.to === affiliate.email);
    expect(message?.subject).toBe('Your Skanova payment method was changed');
    expect(message?.text).toContain('IBAN ending 0189');
    expect(`${message?.text}${message?.html}`).not.toContain('30006');
  });

  const paypalCases: [string, unknown, string, string[] | undefined][] = [
    ['no PayPal e-mail', {}, 'paypal-email-required', ['paypalEmail']],
    ['a blank PayPal e-mail', { paypalEmail: '   ' }, 'paypal-email-required', ['paypalEmail']],
    ['a PayPal e-mail that is not one', { paypalEmail: 'ada.paypal.example' }, 'invalid-paypal-email', ['paypalEmail']],
    [
      'a PayPal e-mail with a space',
      { paypalEmail: 'ada lovelace@paypal.example' },
      'invalid-paypal-email',
      ['paypalEmail'],
    ],
    [
      'a PayPal e-mail too long',
      { paypalEmail: `${'a'.repeat(PROFILE_LIMITS.paypalEmail)}@x.io` },
      'invalid-paypal-email',
      ['paypalEmail'],
    ],
    ['a PayPal e-mail of the wrong type', { paypalEmail: 42 }, 'paypal-email-required', ['paypalEmail']],
  ];
  const bankCases: [string, unknown, string, string[] | undefined][] = [
    ['no bank fields', {}, 'bank-details-required', ['bankName', 'bankIban', 'bic', 'accountHolder']],
    [
      'no bank name and no holder',
      { ...BANK, bankName: '', accountHolder: ' ' },
      'bank-details-required',
      ['bankName', 'accountHolder'],
    ],
    [
      'a bank name too long',
      { ...BANK, bankName: 'B'.repeat(PROFILE_LIMITS.bankName + 1) },
      'field-too-long',
      ['bankName'],
    ],
    [
      'an account holder too long',
      { ...BANK, accountHolder: 'H'.repeat(PROFILE_LIMITS.accountHolder + 1) },
      'field-too-long',
      ['accountHolder'],
    ],
    ['an IBAN of 14 characters', { ...BANK, bankIban: 'FR76 3000 6000 01' }, 'invalid-iban', ['bankIban']],
    ['an IBAN of 35 characters', { ...BANK, bankIban: `FR76${'1'.repeat(31)}` }, 'invalid-iban', ['bankIban']],
    [
      'an IBAN failing mod-97',
      { ...BANK, bankIban: 'FR76 3000 6000 0112 3456 7890 188' },
      'invalid-iban-checksum',
      ['bankIban'],
    ],
    [
      'an IBAN with punctuation',
      { ...BANK, bankIban: 'FR76-3000-6000-0112-3456-7890-189' },
      'invalid-iban-checksum',
      ['bankIban'],
    ],
    ['a BIC of 7 characters', { ...BANK, bic: 'BNPAFRP' }, 'invalid-bic', ['bic']],
    ['a BIC of 10 characters', { ...BANK, bic: 'BNPAFRPPXX' }, 'invalid-bic', ['bic']],
    ['a BIC with digits for the bank', { ...BANK, bic: '1234FRPP' }, 'invalid-bic', ['bic']],
  ];
  const missingCases: [string, unknown, unknown, string][] = [
    ['no method', undefined, { paypalEmail: 'ada@paypal.example' }, 'missing-payment-method'],
    ['an empty method', '', { paypalEmail: 'ada@paypal.example' }, 'missing-payment-method'],
    ['"later"', 'later', {}, 'missing-payment-method'],
    ['an unknown method', 'bitcoin', { paypalEmail: 'ada@paypal.example' }, 'missing-payment-method'],
    ['a method of the wrong type', ['paypal'], { paypalEmail: 'ada@paypal.example' }, 'missing-payment-method'],
    ['no details', 'paypal', undefined, 'missing-payment-details'],
    ['null details', 'bank_transfer', null, 'missing-payment-details'],
    ['details as a string', 'paypal', 'ada@paypal.example', 'missing-payment-details'],
    ['details as an array', 'bank_transfer', [IBAN], 'missing-payment-details'],
  ];

  describe('refuses with invalid-argument and the detail code, changing nothing', () => {
    async function expectRefused(method: unknown, details: unknown, code: string, fields?: string[]) {
      const affiliate = await createTestAffiliate(t, {
        paymentMethod: 'paypal',
        paymentDetails: { paypalEmail: 'before@paypal.example' },
      });
      mail.sent.length = 0;
      const response = await update(affiliate.cookie, method, details);
      expect(response.status).toBe(400);
      expect(response.body.error?.status).toBe('INVALID_ARGUMENT');
      // The detail code, and the fields it names as field errors (ADR 009): under paymentDetails,
      // or the choice or the details as a whole when it names none.
      const key = `payment:errors.${code}`;
      const expected = fields
        ? fields.map((field) => ({ path: `paymentDetails.${field}`, key }))
        : [{ path: code === 'missing-payment-method' ? 'paymentMethod' : 'paymentDetails', key }];
      expect(response.body.error?.details).toEqual({ code, fields: expected });
      expect(await storedRow(affiliate.affiliateId)).toMatchObject({
        type: 'paypal',
        paypal_email: 'before@paypal.example',
      });
      expect(await auditLines(affiliate.affiliateId)).toEqual([]);
      expect(mail.sent.filter((sent) => sent.to === affiliate.email)).toEqual([]);
    }
    it.each(paypalCases)('PayPal with %s', (_label, details, code, fields) =>
      expectRefused('paypal', details, code, fields),
    );
    it.each(bankCases)('bank transfer with %s', (_label, details, code, fields) =>
      expectRefused('bank_transfer', details, code, fields),
    );
    it.each(missingCases)('%s', (_label, method, details, code) => expectRefused(method, details, code));
  });

  it('refuses a NUL character (which PostgreSQL text cannot hold) and changes nothing', async () => {
    const affiliate = await createTestAffiliate(t, {
      paymentMethod: 'paypal',
      paymentDetails: { paypalEmail: 'before@paypal.example' },
    });
    const response = await update(affiliate.cookie, 'bank_transfer', { ...BANK, bankName: 'BNP\u0000' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ status: 'INVALID_ARGUMENT', details: { code: 'invalid-argument' } });
    expect(await storedRow(affiliate.affiliateId)).toMatchObject({
      type: 'paypal',
      paypal_email: 'before@paypal.example',
    });
  });

  it('treats null data as a missing method', async () => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(t, 'updateAffiliatePaymentMethod', null, affiliate.cookie);
    expect(response.status).toBe(400);
    expect(response.body.error?.details).toEqual({
      code: 'missing-payment-method',
      fields: [{ path: 'paymentMethod', key: 'payment:errors.missing-payment-method' }],
    });
  });

  it.each([
    ['a string', 'paypal'],
    ['an array', [{ paymentMethod: 'paypal' }]],
    ['a number', 7],
  ])('refuses data that is %s', async (_label, data) => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(t, 'updateAffiliatePaymentMethod', data, affiliate.cookie);
    expect(response.status).toBe(400);
    expect(response.body.error?.status).toBe('INVALID_ARGUMENT');
  });
});
