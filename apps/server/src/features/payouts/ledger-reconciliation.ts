import type { LedgerReconciliation } from '@skanova/shared/payouts/functions';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { reconcileLedger } from '../../domain/ledger.ts';

// The ledger's reconciliation (docs/product/money.md#the-ledger): every affiliate's balances against the
// rows and the payouts. The scheduler runs it once a UTC day and logs how many accounts differ (never
// whose: the console shows that to an operator); an operator can run it at any time.

/** Reconciles every affiliate's ledger; `actor` is recorded in the audit log. */
export async function runLedgerReconciliation(app: AppContext, actor: string): Promise<LedgerReconciliation> {
  const checkedAt = app.now();
  const differences = await reconcileLedger(app.database.sql);
  const affiliates = new Set(differences.map((difference) => difference.affiliateId)).size;
  if (differences.length > 0)
    app.log.error({ differences: differences.length, affiliates }, 'the ledger does not reconcile');
  await recordAudit(app.database, {
    actor,
    action: 'ledger.reconciled',
    subject: checkedAt.toISOString().slice(0, 10),
    details: { differences: differences.length, affiliates },
    at: checkedAt,
  });
  return { checkedAt: checkedAt.toISOString(), differences };
}
