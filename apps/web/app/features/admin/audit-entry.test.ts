import { describe, expect, it } from 'vitest';
import enAdmin from '@skanova/shared/i18n/en/admin.json';
import frAdmin from '@skanova/shared/i18n/fr/admin.json';
import { KNOWN_AUDIT_ACTIONS, auditEntryView } from './audit-entry';

// The audit log in words: who did what, and before → after, from the entries the server writes.

describe('auditEntryView', () => {
  it('writes an operator’s decision on an affiliate as the status it changed, with the reason', () => {
    expect(
      auditEntryView({
        action: 'affiliate.disabled',
        subject: 'aff-1',
        details: { reason: 'Spam on forums', previousStatus: 'active', wasDisabled: false },
      }),
    ).toEqual({
      action: 'affiliate.disabled',
      lines: [
        {
          field: 'status',
          known: true,
          before: { kind: 'word', key: 'affiliates.statuses.active' },
          after: { kind: 'word', key: 'affiliates.statuses.disabled' },
        },
        { field: 'reason', known: true, value: { kind: 'text', text: 'Spam on forums' } },
      ],
    });
    // Enabling goes back from "disabled" to the status the affiliate had.
    expect(
      auditEntryView({
        action: 'affiliate.enabled',
        subject: 'aff-1',
        details: { reason: null, previousStatus: 'active', wasDisabled: true },
      }).lines,
    ).toEqual([
      {
        field: 'status',
        known: true,
        before: { kind: 'word', key: 'affiliates.statuses.disabled' },
        after: { kind: 'word', key: 'affiliates.statuses.active' },
      },
    ]);
  });

  it('writes a payment-method change before → after, the IBAN by its last four characters only', () => {
    expect(
      auditEntryView({
        action: 'payment_method.updated',
        subject: 'aff-1',
        details: { type: 'bank_transfer', previousType: null, ibanLast4: '0189' },
      }).lines,
    ).toEqual([
      {
        field: 'paymentMethod',
        known: true,
        before: { kind: 'word', key: 'audit.values.noMethod' },
        after: { kind: 'word', key: 'payment:methods.bank_transfer' },
      },
      { field: 'ibanEnding', known: true, value: { kind: 'code', text: '•••• 0189' } },
    ]);
  });

  it('writes a payout’s status change with its amount, and a failure with its reason', () => {
    expect(
      auditEntryView({
        action: 'payout.failed',
        subject: 'p-1',
        details: { affiliateId: 'aff-1', from: 'sent', amountCents: 2400, reason: 'Account closed' },
      }).lines,
    ).toEqual([
      {
        field: 'status',
        known: true,
        before: { kind: 'word', key: 'payouts.statuses.sent' },
        after: { kind: 'word', key: 'payouts.statuses.failed' },
      },
      { field: 'amount', known: true, value: { kind: 'money', cents: 2400 } },
      { field: 'reason', known: true, value: { kind: 'text', text: 'Account closed' } },
    ]);
  });

  it('writes a renamed group and a changed review policy as before → after', () => {
    expect(
      auditEntryView({
        action: 'group.renamed',
        subject: 'creators',
        details: { from: 'Creators', to: 'Video creators' },
      }).lines,
    ).toEqual([
      {
        field: 'name',
        known: true,
        before: { kind: 'text', text: 'Creators' },
        after: { kind: 'text', text: 'Video creators' },
      },
    ]);
    expect(
      auditEntryView({
        action: 'review.policy-changed',
        subject: 'default',
        details: { signal: 'click-burst', action: 'hold', previousAction: 'flag' },
      }).lines,
    ).toEqual([
      { field: 'signal', known: true, value: { kind: 'word', key: 'review.kinds.click-burst' } },
      {
        field: 'policy',
        known: true,
        before: { kind: 'word', key: 'review.actions.flag' },
        after: { kind: 'word', key: 'review.actions.hold' },
      },
    ]);
  });

  it('writes a published rule’s terms: steps, hold in days, minimum', () => {
    const lines = auditEntryView({
      action: 'rule.published',
      subject: 'creators',
      details: {
        version: 2,
        effectiveFrom: '2025-07-01T00:00:00.000Z',
        kind: 'flat',
        tiers: [
          { from: 0, cents: 300 },
          { from: 200, cents: 500 },
        ],
        percentBasisPoints: null,
        recurringMonths: null,
        holdDays: 14,
        minimumPayoutCents: 5000,
      },
    }).lines;
    expect(lines.map((line) => line.field)).toEqual([
      'version',
      'effectiveFrom',
      'ruleKind',
      'steps',
      'hold',
      'minimum',
    ]);
    expect(lines.find((line) => line.field === 'hold')?.value).toEqual({ kind: 'days', value: 14 });
  });

  it('leaves out what an entry does not say, and a change that changed nothing is a fact', () => {
    expect(auditEntryView({ action: 'password.changed', subject: 'aff-1', details: null })).toEqual({
      action: 'password.changed',
      lines: [],
    });
    expect(
      auditEntryView({
        action: 'affiliate.group-changed',
        subject: 'aff-1',
        details: { from: 'default', to: 'default' },
      }).lines,
    ).toEqual([{ field: 'group', known: true, value: { kind: 'code', text: 'default' } }]);
  });

  it('shows an action it does not know field by field, as data, never as raw JSON of the whole', () => {
    expect(
      auditEntryView({
        action: 'something.new',
        subject: 'x',
        details: { count: 3, ok: true, note: 'hello', list: ['a', 'b'], empty: null },
      }),
    ).toEqual({
      action: null,
      lines: [
        { field: 'count', known: false, value: { kind: 'count', value: 3 } },
        { field: 'ok', known: false, value: { kind: 'yes-no', value: true } },
        { field: 'note', known: false, value: { kind: 'text', text: 'hello' } },
        { field: 'list', known: false, value: { kind: 'text', text: 'a, b' } },
      ],
    });
  });

  it('has a sentence for every action it knows, and a label for every field and word it uses, in both languages', () => {
    const has = (strings: Record<string, unknown>, key: string) =>
      key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], strings) !==
      undefined;
    for (const strings of [enAdmin, frAdmin] as Record<string, unknown>[]) {
      for (const action of KNOWN_AUDIT_ACTIONS) expect(has(strings, `audit.actions.${action}`), action).toBe(true);
    }
    // Every field and every admin word of the examples above and of every action with typical details.
    const samples = KNOWN_AUDIT_ACTIONS.map((action) =>
      auditEntryView({
        action,
        subject: 's',
        details: {
          reason: 'r',
          previousStatus: 'active',
          wasDisabled: false,
          status: 'active',
          paymentMethod: 'paypal',
          from: 'scheduled',
          to: 'b',
          balanceCents: 1,
          lastActiveAt: '2025-01-01',
          type: 'paypal',
          previousType: 'bank_transfer',
          ibanLast4: '1234',
          name: 'n',
          version: 1,
          effectiveFrom: '2025-01-01',
          kind: 'percentage',
          tiers: [{ from: 0, cents: 1 }],
          percentBasisPoints: 100,
          recurringMonths: 1,
          holdDays: 1,
          minimumPayoutCents: 1,
          campaignRateId: '3',
          startsAt: '2025-01-01',
          endsAt: '2025-01-02',
          amountCents: 1,
          commissions: 1,
          cents: 1,
          signal: 'click-burst',
          action: 'hold',
          previousAction: 'flag',
          created: 1,
          totalCents: 1,
          belowMinimum: 1,
          withoutPaymentMethod: 1,
          payoutCount: 1,
          payoutTotalCents: 1,
          format: 'f',
          payday: '2025-01-15',
          controlSumCents: 1,
          currency: 'EUR',
          exchangeRate: '1',
          messageId: 'm',
          reference: 'x',
          commissionCents: 1,
          differences: 1,
          affiliates: 1,
          entries: 1,
          summaryLines: 1,
          host: 'h',
          eventTypes: ['e'],
          changed: ['url', 'eventTypes', 'description', 'enabled'],
          previousValidUntil: '2025-01-01',
          eventId: 'e',
          previousStatus2: 'x',
          email: 'e',
          unbanned: true,
          linkExpiresAt: '2025-01-01',
        },
      }),
    );
    const words = (value: unknown): string[] =>
      value && typeof value === 'object'
        ? (value as { kind?: string }).kind === 'word'
          ? [(value as { key: string }).key]
          : Object.values(value).flatMap(words)
        : [];
    for (const strings of [enAdmin, frAdmin] as Record<string, unknown>[]) {
      for (const line of samples.flatMap((view) => view.lines)) {
        expect(has(strings, `audit.fields.${line.field}`), line.field).toBe(true);
        for (const key of words(line).filter((word) => !word.includes(':'))) expect(has(strings, key), key).toBe(true);
      }
    }
  });
});
