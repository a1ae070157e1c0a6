import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldError } from '@skanova/shared/callable/field-errors';
import { type TestApp, createTestApp, memoryMailer } from './helpers/app.ts';
import { callFn, createTestAffiliate, signupPayload } from './helpers/affiliates.ts';

// One error shape from the server to a form (ADR 009): a form's input refused by its schema, or by
// a rule that needs the database, answers its field errors in `details.fields` (path + namespaced
// translation key), beside the protocol's `details.code`; every key has a text in both languages.

const mail = memoryMailer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mailer: mail.mailer });
});
afterAll(() => t.close());

const I18N = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/shared/src/i18n');

/** The text of a namespaced key in one language, if any. */
function text(lang: string, key: string): unknown {
  const [ns, rest] = key.split(':') as [string, string];
  const json: unknown = JSON.parse(readFileSync(path.join(I18N, lang, `${ns}.json`), 'utf8'));
  return rest.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], json);
}

function expectTranslated(fields: FieldError[]) {
  for (const { key } of fields) {
    expect(typeof text('en', key), `en ${key}`).toBe('string');
    expect(typeof text('fr', key), `fr ${key}`).toBe('string');
  }
}

let ip = 0;
const nextIp = () => `10.77.0.${++ip}`;

describe('signup (createAffiliate)', () => {
  it('answers 400 with each refused field of every step', async () => {
    const response = await callFn(
      t,
      'createAffiliate',
      signupPayload({
        email: 'not an address',
        password: 'short',
        lastName: ' ',
        website: 'not a site',
        paymentMethod: 'bank_transfer',
        paymentDetails: { accountHolder: 'Ada', bankName: 'BNP', bankIban: 'FR7630006000011234567890189', bic: 'BNPA' },
        termsAccepted: false,
      }),
      undefined,
      nextIp(),
    );
    expect(response.status).toBe(400);
    expect(response.body.error?.status).toBe('INVALID_ARGUMENT');
    expect(response.body.error?.details?.code).toBe('invalid-argument');
    const fields = response.body.error?.details?.fields as FieldError[];
    expect(fields).toEqual([
      { path: 'email', key: 'auth:errors.emailInvalid' },
      { path: 'password', key: 'auth:errors.passwordTooShort' },
      { path: 'lastName', key: 'auth:errors.namesRequired' },
      { path: 'website', key: 'auth:errors.websiteInvalid' },
      { path: 'termsAccepted', key: 'auth:errors.termsRequired' },
    ]);
    expectTranslated(fields);
  });

  it('names the payment field the shared payment rule refuses', async () => {
    const response = await callFn(
      t,
      'createAffiliate',
      signupPayload({ paymentMethod: 'paypal', paymentDetails: { paypalEmail: 'nope' } }),
      undefined,
      nextIp(),
    );
    expect(response.status).toBe(400);
    expect(response.body.error?.details?.fields).toEqual([
      { path: 'paymentDetails.paypalEmail', key: 'payment:errors.invalid-paypal-email' },
    ]);
  });

  it('answers an address already used on the e-mail field, in the same shape', async () => {
    const first = await createTestAffiliate(t);
    const response = await callFn(t, 'createAffiliate', signupPayload({ email: first.email }), undefined, nextIp());
    expect(response.status).toBe(409);
    expect(response.body.error?.details).toEqual({
      code: 'email-taken',
      fields: [{ path: 'email', key: 'auth:errors.emailTaken' }],
    });
    expectTranslated(response.body.error?.details?.fields as FieldError[]);
  });

  it('words a value of the wrong type with the protocol’s own message', async () => {
    const response = await callFn(t, 'createAffiliate', signupPayload({ firstName: 42 }), undefined, nextIp());
    expect(response.status).toBe(400);
    expect(response.body.error?.details?.fields).toEqual([{ path: 'firstName', key: 'auth:errors.namesRequired' }]);
    const wrongRoot = await callFn(t, 'createAffiliate', 'a string', undefined, nextIp());
    expect(wrongRoot.body.error?.details?.fields).toEqual([{ path: '', key: 'common:callable.invalid-argument' }]);
  });
});

describe('support (submitContactForm)', () => {
  it('answers 400 with the contact form’s keys', async () => {
    const response = await callFn(
      t,
      'submitContactForm',
      { name: '', email: 'nope', subject: 'billing', message: 'short' },
      undefined,
      nextIp(),
    );
    expect(response.status).toBe(400);
    const fields = response.body.error?.details?.fields as FieldError[];
    expect(fields).toEqual([
      { path: 'name', key: 'support:form.errors.nameRequired' },
      { path: 'email', key: 'support:form.errors.emailInvalid' },
      { path: 'subject', key: 'support:form.errors.subjectRequired' },
      { path: 'message', key: 'support:form.errors.messageTooShort' },
    ]);
    expectTranslated(fields);
  });
});

describe('payment method (updateAffiliatePaymentMethod)', () => {
  it('answers 400 with the detail code and the bank fields it names', async () => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(
      t,
      'updateAffiliatePaymentMethod',
      { paymentMethod: 'bank_transfer', paymentDetails: { bankIban: 'FR7630006000011234567890189', bic: 'BNPAFRPP' } },
      affiliate.cookie,
    );
    expect(response.status).toBe(400);
    const fields = response.body.error?.details?.fields as FieldError[];
    expect(response.body.error?.details?.code).toBe('bank-details-required');
    expect(fields).toEqual([
      { path: 'paymentDetails.bankName', key: 'payment:errors.bank-details-required' },
      { path: 'paymentDetails.accountHolder', key: 'payment:errors.bank-details-required' },
    ]);
    expectTranslated(fields);
  });
});

describe('account deletion (deleteAffiliateAccount)', () => {
  it('answers a wrong password on the password field', async () => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(t, 'deleteAffiliateAccount', { password: 'not the password' }, affiliate.cookie);
    expect(response.status).toBe(403);
    expect(response.body.error?.details).toEqual({
      code: 'wrong-password',
      fields: [{ path: 'password', key: 'dashboard:settings.delete.errors.wrongPassword' }],
    });
    expectTranslated(response.body.error?.details?.fields as FieldError[]);
  });
});
