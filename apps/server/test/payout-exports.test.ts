import { SEPA_PAIN_VERSIONS } from '@skanova/shared/payouts/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPayouts } from '../src/features/payouts/payout-run.ts';
import { payoutIdFromTransferReference, transferReference } from '../src/features/payouts/transfer-reference.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { callFn } from './helpers/affiliates.ts';
import { createOperator, createPayee, insertApproved, moneyOf, payoutsOf } from './fixtures/payouts.ts';
import { sepaTransactions, sepaValue, sepaViolations } from './fixtures/sepa-rules.ts';

// adminExportPayouts (docs/product/money.md#payouts): the PayPal Payouts CSV and the SEPA pain.001 files of a
// payday's scheduled payouts, what each payout records (export, rate, amount paid), and that a
// payout never goes into two files.

const PAYDAY = '2025-06-15';
const MAY = new Date('2025-05-10T12:00:00.000Z');

let t: TestApp;
let operator: { cookie: string; userId: string };
beforeEach(async () => {
  t = await createTestApp({
    env: {
      PAYOUT_DEBTOR_NAME: 'Société Exemple SAS',
      PAYOUT_DEBTOR_IBAN: 'FR76 3000 6000 0112 3456 7890 189',
      PAYOUT_DEBTOR_BIC: 'AGRIFRPPXXX',
    },
  });
  t.clock.now = new Date('2025-06-15T07:30:00.000Z');
  operator = await createOperator(t);
});
afterEach(() => t.close());

const exportFile = (data: Record<string, unknown>) => callFn(t, 'adminExportPayouts', data, operator.cookie);

/** RFC 4180 CSV back into rows of fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  expect(field).toBe('');
  expect(row).toEqual([]);
  return rows;
}

async function exportsStored() {
  const { rows } = await t.database.sql.query<{
    id: string;
    kind: string;
    format: string;
    message_id: string;
    payout_count: number;
    control_sum_cents: string;
    currency: string;
    exchange_rate: string | null;
    content: string;
    created_by: string;
  }>(
    'SELECT id::text AS id, kind, format, message_id, payout_count, control_sum_cents::text AS control_sum_cents, currency, exchange_rate::text AS exchange_rate, content, created_by FROM payout_exports ORDER BY created_at, id',
  );
  return rows;
}

describe('PayPal', () => {
  it('writes one CSV line per scheduled PayPal payout, as PayPal reads it, and records it', async () => {
    const english = await createPayee(t, 'paypal', { language: 'en' });
    const french = await createPayee(t, 'paypal', { language: 'fr' });
    const bank = await createPayee(t, 'bank_transfer');
    await insertApproved(t, english.affiliateId, 10, MAY);
    await insertApproved(t, french.affiliateId, 13, MAY);
    await insertApproved(t, bank.affiliateId, 10, MAY);
    await runPayouts(t.context, PAYDAY);

    const response = await exportFile({ kind: 'paypal', payday: PAYDAY });
    expect(response.status).toBe(200);
    const file = response.body.result;
    expect(file).toMatchObject({
      contentType: 'text/csv; charset=utf-8',
      payoutCount: 2,
      totalCents: 4600,
      currency: 'USD',
      format: 'paypal-payouts-csv',
      exchangeRate: null,
      created: true,
      remaining: 0,
    });
    expect(file.messageId).toMatch(/^PAYOUTS-20250615-PAYPAL-[0-9A-F]{10}$/);
    expect(file.fileName).toBe(`${file.messageId.toLowerCase()}.csv`);

    const rows = parseCsv(file.content);
    const payouts = await payoutsOf(t);
    const byEmail = new Map(rows.map((row) => [row[0], row]));
    expect(rows).toHaveLength(2);
    for (const [affiliate, amount, note] of [
      [english, '20.00', 'Your Skanova affiliate commissions for May 2025. Thank you for your work!'],
      [french, '26.00', "Vos commissions d'affiliation Skanova pour mai 2025. Merci pour votre travail !"],
    ] as const) {
      const payout = payouts.find((row) => row.affiliate_id === affiliate.affiliateId)!;
      expect(byEmail.get(affiliate.paypalEmail)).toEqual([
        affiliate.paypalEmail,
        amount,
        'USD',
        transferReference(payout.id),
        note,
        'PAYPAL',
      ]);
      expect(payoutIdFromTransferReference(byEmail.get(affiliate.paypalEmail)![3]!)).toBe(payout.id);
      expect(payout).toMatchObject({
        export_id: file.exportId,
        amount_paid_cents: payout.amount_cents,
        paid_currency: 'USD',
        exchange_rate: null,
        status: 'scheduled',
      });
    }
    expect(payouts.find((row) => row.affiliate_id === bank.affiliateId)?.export_id).toBeNull();
    expect(await exportsStored()).toEqual([
      {
        id: file.exportId,
        kind: 'paypal',
        format: 'paypal-payouts-csv',
        message_id: file.messageId,
        payout_count: 2,
        control_sum_cents: '4600',
        currency: 'USD',
        exchange_rate: null,
        content: file.content,
        created_by: operator.userId,
      },
    ]);
    // The affiliate sees what is paid to them.
    const history = await callFn(t, 'getAffiliatePayouts', null, french.cookie);
    expect(history.body.result.payouts[0]).toMatchObject({
      amountCents: 2600,
      amountPaidCents: 2600,
      paidCurrency: 'USD',
    });
  });

  it('answers the same file again rather than exporting a payout twice; new payouts get their own file', async () => {
    const first = await createPayee(t, 'paypal');
    await insertApproved(t, first.affiliateId, 10, MAY);
    // The run dies after its last batch, before it is recorded as done: a later run resumes it.
    const stop = new Error('killed');
    const died = runPayouts(t.context, PAYDAY, {
      beforeBatchCommit: (batch) => {
        if (batch === 2) throw stop;
      },
    });
    await expect(died).rejects.toBe(stop);
    const initial = await exportFile({ kind: 'paypal', payday: PAYDAY });
    const again = await exportFile({ kind: 'paypal', payday: PAYDAY });
    expect(again.body.result).toEqual({ ...initial.body.result, created: false });
    expect(await exportsStored()).toHaveLength(1);
    expect((await exportFile({ kind: 'sepa', payday: PAYDAY, exchangeRate: '0.92' })).body.error).toMatchObject({
      status: 'FAILED_PRECONDITION',
      details: { code: 'no-scheduled-payouts' },
    });

    // A payout scheduled later (the run resumed) goes into a new file, alone.
    const second = await createPayee(t, 'paypal');
    await insertApproved(t, second.affiliateId, 11, MAY);
    await runPayouts(t.context, PAYDAY);
    const next = await exportFile({ kind: 'paypal', payday: PAYDAY });
    expect(next.body.result).toMatchObject({ payoutCount: 1, totalCents: 2200, created: true });
    expect(next.body.result.messageId).not.toBe(initial.body.result.messageId);
    expect(parseCsv(next.body.result.content).map((row) => row[0])).toEqual([second.paypalEmail]);

    // Once sent, nothing is left to export.
    await callFn(
      t,
      'adminMarkPayouts',
      { payoutIds: (await payoutsOf(t)).map((payout) => payout.id), status: 'sent' },
      operator.cookie,
    );
    expect((await exportFile({ kind: 'paypal', payday: PAYDAY })).body.error?.details?.code).toBe(
      'no-scheduled-payouts',
    );
  });

  it('refuses an exchange rate or a SEPA version (PayPal pays USD)', async () => {
    for (const data of [
      { kind: 'paypal', payday: PAYDAY, exchangeRate: '0.92' },
      { kind: 'paypal', payday: PAYDAY, painVersion: 'pain.001.001.03' },
    ]) {
      expect((await exportFile(data)).body.error).toMatchObject({
        status: 'INVALID_ARGUMENT',
        details: { code: 'not-for-paypal' },
      });
    }
  });
});

describe('SEPA', () => {
  async function bankPayouts() {
    const accented = await createPayee(t, 'bank_transfer', {
      accountHolder: 'Zoë Ångström-Łukasz & Søren',
      language: 'fr',
    });
    const plain = await createPayee(t, 'bank_transfer', { accountHolder: 'Ada Lovelace', language: 'en' });
    await createPayee(t, 'paypal').then((paypal) => insertApproved(t, paypal.affiliateId, 10, MAY));
    await insertApproved(t, accented.affiliateId, 10, MAY); // $20.00
    await insertApproved(t, plain.affiliateId, 3, MAY, 833); // $24.99
    await runPayouts(t.context, PAYDAY);
    return { accented, plain };
  }

  it.each(SEPA_PAIN_VERSIONS)(
    'writes a valid %s file in euros at the operator’s rate, and records it',
    async (version) => {
      const { accented, plain } = await bankPayouts();
      const response = await exportFile({ kind: 'sepa', payday: PAYDAY, exchangeRate: '0.9231', painVersion: version });
      expect(response.status).toBe(200);
      const file = response.body.result;
      // 2000 × 0.9231 = 1846.2 → 1846; 2499 × 0.9231 = 2306.83 → 2307.
      expect(file).toMatchObject({
        contentType: 'application/xml; charset=utf-8',
        payoutCount: 2,
        totalCents: 1846 + 2307,
        currency: 'EUR',
        format: version,
        exchangeRate: '0.923100',
        created: true,
      });
      expect(sepaViolations(file.content, version)).toEqual([]);
      expect(sepaValue(file.content, 'MsgId')).toBe(file.messageId);
      expect(sepaValue(file.content, 'CtrlSum')).toBe('41.53');
      expect(sepaValue(file.content, 'CreDtTm')).toBe('2025-06-15T07:30:00Z');
      expect(file.content).toContain('<IBAN>FR7630006000011234567890189</IBAN>');
      expect(sepaValue(file.content, 'Nm')).toBe('Societe Exemple SAS');

      const payouts = await payoutsOf(t);
      const transactions = sepaTransactions(file.content, version);
      for (const [affiliate, amountPaid, name, remittance] of [
        [accented, 1846, 'Zoe Angstrom-Lukasz + Soren', 'Commissions affiliation Skanova mai 2025 ref'],
        [plain, 2307, 'Ada Lovelace', 'Skanova affiliate commissions May 2025 ref'],
      ] as const) {
        const payout = payouts.find((row) => row.affiliate_id === affiliate.affiliateId)!;
        expect(payout).toMatchObject({
          export_id: file.exportId,
          exchange_rate: '0.923100',
          amount_paid_cents: amountPaid,
          paid_currency: 'EUR',
          status: 'scheduled',
        });
        const transaction = transactions.find((row) => row.endToEndId === transferReference(payout.id));
        expect(transaction).toEqual({
          endToEndId: transferReference(payout.id),
          amount: (amountPaid / 100).toFixed(2),
          bic: affiliate.bic,
          name,
          iban: affiliate.iban,
          remittance: `${remittance} ${transferReference(payout.id)}`,
        });
      }
      expect(await exportsStored()).toMatchObject([
        {
          id: file.exportId,
          kind: 'sepa',
          format: version,
          control_sum_cents: String(1846 + 2307),
          currency: 'EUR',
          exchange_rate: '0.923100',
          payout_count: 2,
        },
      ]);

      // The e-mail of a sent SEPA payout gives both amounts; the history shows the euros.
      const payoutId = payouts.find((row) => row.affiliate_id === plain.affiliateId)!.id;
      await callFn(t, 'adminMarkPayouts', { payoutIds: [payoutId], status: 'sent' }, operator.cookie);
      const { rows } = await t.database.sql.query<{ text_body: string }>(
        'SELECT text_body FROM email_outbox WHERE dedupe_key = $1',
        [`payout-sent:${payoutId}`],
      );
      expect(rows[0]!.text_body).toContain('€23.07');
      expect(rows[0]!.text_body).toContain('$24.99');
      const history = await callFn(t, 'getAffiliatePayouts', null, plain.cookie);
      expect(history.body.result.payouts[0]).toMatchObject({
        amountCents: 2499,
        amountPaidCents: 2307,
        paidCurrency: 'EUR',
      });
    },
  );

  it('uses the configured version by default', async () => {
    await bankPayouts();
    const file = (await exportFile({ kind: 'sepa', payday: PAYDAY, exchangeRate: '1' })).body.result;
    expect(file.format).toBe('pain.001.001.09');
    expect(file.content).toContain('xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"');
  });

  it('answers the same file again, and refuses to export it at another rate or version', async () => {
    await bankPayouts();
    const first = await exportFile({ kind: 'sepa', payday: PAYDAY, exchangeRate: '0.9231' });
    const same = await exportFile({ kind: 'sepa', payday: PAYDAY, exchangeRate: '0.923100' });
    expect(same.body.result).toEqual({ ...first.body.result, created: false });
    for (const data of [
      { kind: 'sepa', payday: PAYDAY, exchangeRate: '0.95' },
      { kind: 'sepa', payday: PAYDAY, exchangeRate: '0.9231', painVersion: 'pain.001.001.03' },
    ]) {
      expect((await exportFile(data)).body.error).toMatchObject({
        status: 'FAILED_PRECONDITION',
        details: { code: 'already-exported', messageId: first.body.result.messageId },
      });
    }
    expect(await exportsStored()).toHaveLength(1);
  });

  it('needs a plausible exchange rate', async () => {
    await bankPayouts();
    expect((await exportFile({ kind: 'sepa', payday: PAYDAY })).body.error).toMatchObject({
      status: 'INVALID_ARGUMENT',
      details: { code: 'exchange-rate-required' },
    });
    for (const exchangeRate of ['9.231', '0.09', '0,92', '-0.9', '1e0', '0.1234567', 'abc', '', 0.92]) {
      const response = await exportFile({ kind: 'sepa', payday: PAYDAY, exchangeRate });
      expect({ exchangeRate, status: response.body.error?.status }).toEqual({
        exchangeRate,
        status: 'INVALID_ARGUMENT',
      });
    }
    expect(await exportsStored()).toEqual([]);
    expect((await payoutsOf(t)).every((payout) => payout.export_id === null && payout.exchange_rate === null)).toBe(
      true,
    );
  });

  it('leaves the balances where they were: an export pays nothing by itself', async () => {
    const { plain } = await bankPayouts();
    const before = await moneyOf(t, plain);
    await exportFile({ kind: 'sepa', payday: PAYDAY, exchangeRate: '0.9231' });
    expect(await moneyOf(t, plain)).toEqual(before);
  });
});
