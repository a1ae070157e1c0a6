import { randomBytes } from 'node:crypto';
import type { PayoutExportFile } from '@skanova/shared/payouts/functions';
import type { PayoutExportKind, SepaPainVersion } from '@skanova/shared/payouts/schemas';
import { COMMISSION_CURRENCY } from '@skanova/shared/affiliate/programme';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { affiliates, payouts } from '../../db/schema/affiliates.ts';
import { payoutExports } from '../../db/schema/programme.ts';
import { type Tx, inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { convertCents, normaliseExchangeRate } from '../../domain/money.ts';
import type { MethodSnapshot } from './payout-run.ts';
import { transferText } from './payout-texts.ts';
import { PAYPAL_CSV_MAX_ROWS, buildPaypalCsv } from './paypal-csv.ts';
import { SepaDataError, buildSepaXml } from './sepa-xml.ts';
import { transferReference } from './transfer-reference.ts';

// The files an operator uploads to pay a payday's scheduled payouts (docs/product/money.md#payouts): a PayPal
// Payouts CSV (USD) or a SEPA pain.001 (EUR at the operator's USD→EUR rate). In one transaction the
// file is built from the payouts' method snapshots, stored in payout_exports (content, message id,
// control sum, count, rate), and each payout gets its export, its rate and the amount it pays.
//
// A payout goes into one file only: a second request exports the payouts not yet exported, and
// when every one already was, answers the same file again (same message id, which a bank refuses
// to execute twice) instead of a new one that would pay them a second time.

export const SEPA_CURRENCY = 'EUR';

export interface ExportPayoutsInput {
  kind: PayoutExportKind;
  payday: string;
  exchangeRate?: string | undefined;
  painVersion?: SepaPainVersion | undefined;
  /** The operator's user id. */
  actor: string;
}

/** A scheduled payout as the files need it: the method snapshot (sealed) and the affiliate's language. */
const scheduledPayoutColumns = {
  id: payouts.id,
  amountCents: payouts.amountCents,
  currency: payouts.currency,
  periodStart: payouts.periodStart,
  methodSnapshot: payouts.methodSnapshot,
  exportId: payouts.exportId,
  language: affiliates.language,
};

interface ScheduledPayout {
  id: string;
  amountCents: number;
  currency: string;
  periodStart: string;
  methodSnapshot: unknown;
  exportId: string | null;
  language: string;
}

/** An export as the answer needs it (not its payday or author). */
const exportColumns = {
  id: payoutExports.id,
  kind: payoutExports.kind,
  format: payoutExports.format,
  messageId: payoutExports.messageId,
  payoutCount: payoutExports.payoutCount,
  controlSumCents: payoutExports.controlSumCents,
  currency: payoutExports.currency,
  exchangeRate: payoutExports.exchangeRate,
  fileName: payoutExports.fileName,
  content: payoutExports.content,
};

interface ExportRow {
  id: string;
  kind: PayoutExportKind;
  format: string;
  messageId: string;
  payoutCount: number;
  controlSumCents: number;
  currency: string;
  exchangeRate: string | null;
  fileName: string;
  content: string;
}

const CONTENT_TYPES: Record<PayoutExportKind, string> = {
  paypal: 'text/csv; charset=utf-8',
  sepa: 'application/xml; charset=utf-8',
};

function fileOf(row: ExportRow, created: boolean, remaining: number): PayoutExportFile {
  return {
    exportId: row.id,
    fileName: row.fileName,
    contentType: CONTENT_TYPES[row.kind],
    content: row.content,
    payoutCount: row.payoutCount,
    totalCents: row.controlSumCents,
    currency: row.currency,
    messageId: row.messageId,
    format: row.format,
    exchangeRate: row.exchangeRate,
    created,
    remaining,
  };
}

/** Unique and within SEPA's 35 characters: PAYOUTS-20250615-SEPA-3FA9C01B7D. */
function newMessageId(payday: string, kind: PayoutExportKind): string {
  return `PAYOUTS-${payday.replace(/-/g, '')}-${kind.toUpperCase()}-${randomBytes(5).toString('hex').toUpperCase()}`;
}

/** Builds (or answers again) the export of the payday's scheduled payouts of one method. */
export async function exportPayouts(app: AppContext, input: ExportPayoutsInput): Promise<PayoutExportFile> {
  if (input.kind === 'sepa' && !input.exchangeRate) {
    throw new CallableError('invalid-argument', 'A SEPA export needs the USD→EUR exchange rate.', {
      code: 'exchange-rate-required',
    });
  }
  if (input.kind === 'paypal' && (input.exchangeRate || input.painVersion)) {
    throw new CallableError(
      'invalid-argument',
      'A PayPal export pays USD: it takes no exchange rate or SEPA version.',
      { code: 'not-for-paypal' },
    );
  }
  const rate = input.kind === 'sepa' ? normaliseExchangeRate(input.exchangeRate ?? '') : null;
  const format = input.kind === 'paypal' ? 'paypal-payouts-csv' : (input.painVersion ?? app.config.SEPA_PAIN_VERSION);

  return inTransaction(app, async (tx) => {
    const scheduled: ScheduledPayout[] = await tx.db
      .select(scheduledPayoutColumns)
      .from(payouts)
      .innerJoin(affiliates, eq(affiliates.id, payouts.affiliateId))
      .where(
        and(
          eq(payouts.scheduledFor, input.payday),
          eq(payouts.status, 'scheduled'),
          eq(payouts.method, input.kind === 'paypal' ? 'paypal' : 'bank_transfer'),
        ),
      )
      .orderBy(asc(payouts.id))
      .for('update', { of: payouts });
    if (scheduled.length === 0) {
      throw new CallableError(
        'failed-precondition',
        `No scheduled ${input.kind === 'paypal' ? 'PayPal' : 'bank transfer'} payout for ${input.payday}.`,
        {
          code: 'no-scheduled-payouts',
        },
      );
    }
    const pending = scheduled.filter((payout) => payout.exportId === null);
    if (pending.length === 0) return answerAgain(tx, scheduled, format, rate);

    const included = input.kind === 'paypal' ? pending.slice(0, PAYPAL_CSV_MAX_ROWS) : pending;
    const messageId = newMessageId(input.payday, input.kind);
    const paid = included.map((payout) => ({
      payout,
      // What payout-run.ts wrote: the sealed method (jsonb, read back by Drizzle).
      snapshot: payout.methodSnapshot as MethodSnapshot,
      reference: transferReference(payout.id),
      paidCents: rate === null ? payout.amountCents : convertCents(payout.amountCents, rate),
    }));
    const content =
      input.kind === 'paypal'
        ? paypalFile(app, paid)
        : sepaFile(app, paid, { format: format as SepaPainVersion, messageId, payday: input.payday });
    const controlSumCents = paid.reduce((sum, entry) => sum + entry.paidCents, 0);
    const currency = rate === null ? COMMISSION_CURRENCY : SEPA_CURRENCY;
    const now = app.now();

    const [exported] = await tx.db
      .insert(payoutExports)
      .values({
        kind: input.kind,
        format,
        messageId,
        payday: input.payday,
        payoutCount: paid.length,
        controlSumCents,
        currency,
        exchangeRate: rate,
        fileName: `${messageId.toLowerCase()}.${input.kind === 'paypal' ? 'csv' : 'xml'}`,
        content,
        createdBy: input.actor,
        createdAt: now,
      })
      .returning(exportColumns);
    if (!exported) throw new Error('payout export insert returned no row');
    await tx.query(
      `UPDATE payouts p SET export_id = $2::uuid, exchange_rate = $3::numeric, paid_currency = $4, amount_paid_cents = x.paid_cents
       FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, paid_cents int) WHERE p.id = x.id`,
      [
        JSON.stringify(paid.map((entry) => ({ id: entry.payout.id, paid_cents: entry.paidCents }))),
        exported.id,
        rate,
        currency,
      ],
    );
    await recordAudit(tx, {
      actor: input.actor,
      action: 'payouts.export',
      subject: exported.id,
      details: {
        kind: input.kind,
        format,
        payday: input.payday,
        messageId,
        payoutCount: paid.length,
        controlSumCents,
        currency,
        exchangeRate: rate,
      },
      at: now,
    });
    return fileOf(exported, true, pending.length - included.length);
  });
}

/** Every payout asked for is in an export already: its latest file again, if asked the same way. */
async function answerAgain(
  tx: Tx,
  scheduled: ScheduledPayout[],
  format: string,
  rate: string | null,
): Promise<PayoutExportFile> {
  const exportIds = [...new Set(scheduled.map((payout) => payout.exportId).filter((id) => id !== null))];
  const rows = await tx.db
    .select(exportColumns)
    .from(payoutExports)
    .where(inArray(payoutExports.id, exportIds))
    .orderBy(desc(payoutExports.createdAt), asc(payoutExports.id))
    .limit(1);
  const latest = rows[0]!;
  if (latest.format !== format || latest.exchangeRate !== rate) {
    throw new CallableError(
      'failed-precondition',
      `These payouts were already exported (${latest.messageId}, ${latest.format}${latest.exchangeRate ? ` at ${latest.exchangeRate}` : ''}). Mark them failed to pay them another way.`,
      {
        code: 'already-exported',
        exportId: latest.id,
        messageId: latest.messageId,
        format: latest.format,
        exchangeRate: latest.exchangeRate,
      },
    );
  }
  return fileOf(latest, false, 0);
}

interface PaidPayout {
  payout: ScheduledPayout;
  snapshot: MethodSnapshot;
  reference: string;
  paidCents: number;
}

function unusable(payout: ScheduledPayout, what: string): CallableError {
  return new CallableError(
    'failed-precondition',
    `The payout ${payout.id} cannot be exported: ${what}. Mark it failed and pay it another way.`,
    {
      code: 'payout-not-exportable',
      payoutId: payout.id,
    },
  );
}

function paypalFile(app: AppContext, paid: PaidPayout[]): string {
  return buildPaypalCsv(
    paid.map(({ payout, snapshot, reference, paidCents }) => {
      if (snapshot.type !== 'paypal' || !snapshot.paypalEmail) throw unusable(payout, 'it has no PayPal e-mail');
      return {
        email: snapshot.paypalEmail,
        amountCents: paidCents,
        currency: COMMISSION_CURRENCY,
        customerId: reference,
        note: transferText('paypalNote', {
          brand: app.config.BRAND_NAME,
          language: payout.language,
          periodStart: payout.periodStart,
          reference,
        }),
      };
    }),
  );
}

function sepaFile(
  app: AppContext,
  paid: PaidPayout[],
  file: { format: SepaPainVersion; messageId: string; payday: string },
): string {
  const now = app.now();
  const today = now.toISOString().slice(0, 10);
  const transfers = paid.map(({ payout, snapshot, reference, paidCents }) => {
    if (snapshot.type !== 'bank_transfer' || !snapshot.ibanEncrypted || !snapshot.accountHolder)
      throw unusable(payout, 'it has no bank account');
    let iban: string;
    let bic: string | null;
    try {
      iban = app.cipher.decrypt(snapshot.ibanEncrypted);
      bic = snapshot.bicEncrypted ? app.cipher.decrypt(snapshot.bicEncrypted) : null;
    } catch {
      throw unusable(payout, 'its bank details cannot be decrypted with the configured keys');
    }
    return {
      endToEndId: reference,
      amountCents: paidCents,
      creditorName: snapshot.accountHolder,
      creditorIban: iban,
      creditorBic: bic,
      remittance: transferText('sepaRemittance', {
        brand: app.config.BRAND_NAME,
        language: payout.language,
        periodStart: payout.periodStart,
        reference,
      }),
    };
  });
  try {
    return buildSepaXml({
      version: file.format,
      messageId: file.messageId,
      paymentInfoId: `${file.messageId}-1`,
      createdAt: now,
      // A bank refuses an execution date in the past: a late export asks for today.
      executionDate: file.payday > today ? file.payday : today,
      debtor: {
        name: app.config.PAYOUT_DEBTOR_NAME,
        iban: app.config.PAYOUT_DEBTOR_IBAN,
        bic: app.config.PAYOUT_DEBTOR_BIC,
      },
      transfers,
    });
  } catch (error) {
    if (error instanceof SepaDataError)
      throw new CallableError('failed-precondition', error.message, { code: 'sepa-data' });
    throw error;
  }
}
