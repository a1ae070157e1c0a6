import { describe, expect, it } from 'vitest';
import type { AdminAffiliateProfile } from '@skanova/shared/admin/responses';
import type { LedgerDifference } from '@skanova/shared/payouts/functions';
import { CallableClientError, INVALID_JSON_MESSAGE } from '../../lib/callable';
import enAdmin from '@skanova/shared/i18n/en/admin.json';
import frAdmin from '@skanova/shared/i18n/fr/admin.json';
import { createTestI18n } from '../../test-support/i18n';
import { adminErrorMessage, formatCompactDateTime, formatCompactDay, formatDateTime } from './admin-format';
import { adminTabFromHash } from './admin-tab';
import { availableActions } from './affiliate-detail';

// The console's rules that do not need a page: which section a hash opens, which decisions an
// affiliate's state allows, which message a failed call shows, and the name of each ledger account a
// reconciliation can report.

describe('adminTabFromHash', () => {
  it('opens the named section, and the overview for anything else', () => {
    expect(adminTabFromHash('#payouts')).toBe('payouts');
    expect(adminTabFromHash('audit')).toBe('audit');
    expect(adminTabFromHash('')).toBe('overview');
    expect(adminTabFromHash('#settings')).toBe('overview');
    expect(adminTabFromHash('#affiliates')).toBe('affiliates');
  });
});

describe('availableActions', () => {
  const profile = (overrides: Partial<AdminAffiliateProfile>): AdminAffiliateProfile => ({
    id: 'a1',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: null,
    companyName: null,
    website: null,
    language: 'en',
    status: 'active',
    disabled: false,
    disabledReason: null,
    deleted: false,
    paymentMethod: null,
    groupId: 'default',
    groupName: 'Default',
    createdAt: '2025-01-01T00:00:00.000Z',
    termsAcceptedAt: null,
    lastActiveAt: null,
    ...overrides,
  });
  const operator = 'operator@example.com';

  it('offers what the server accepts for each state', () => {
    expect(availableActions(profile({ status: 'pending' }), operator)).toEqual(['approve', 'refuse', 'disable']);
    expect(availableActions(profile({ status: 'refused' }), operator)).toEqual(['approve', 'disable']);
    expect(availableActions(profile({ status: 'active' }), operator)).toEqual(['disable']);
    expect(availableActions(profile({ status: 'active', disabled: true }), operator)).toEqual(['enable']);
    expect(availableActions(profile({ status: 'pending', disabled: true }), operator)).toEqual([
      'approve',
      'refuse',
      'enable',
    ]);
    expect(availableActions(profile({ deleted: true, email: null }), operator)).toEqual([]);
  });

  it('never offers an operator to disable their own account', () => {
    expect(availableActions(profile({ email: operator }), operator)).toEqual([]);
  });
});

describe('adminErrorMessage', () => {
  const i18n = createTestI18n('en', { en: { admin: enAdmin } });
  const t = i18n.getFixedT('en', 'admin');
  const message = (error: unknown) => adminErrorMessage(error, t, (key) => i18n.exists(`admin:${key}`));

  it('translates the protocol’s and the console’s own codes', () => {
    expect(message(new CallableClientError('cannot-disable-self', 'You cannot disable your own account.'))).toBe(
      enAdmin.errors['cannot-disable-self'],
    );
    expect(message(new CallableClientError('unauthenticated', 'unauthenticated'))).toBe(enAdmin.errors.unauthenticated);
  });

  it('shows the server’s message for a code it does not know, else a generic one', () => {
    expect(message(new CallableClientError('rate-out-of-bounds', 'The exchange rate must be between 0.5 and 2.'))).toBe(
      'The exchange rate must be between 0.5 and 2.',
    );
    expect(message(new CallableClientError('weird', 'weird'))).toBe(enAdmin.errors.generic);
    expect(message(new CallableClientError('internal', INVALID_JSON_MESSAGE))).toBe(enAdmin.errors.internal);
    expect(message(new Error('boom'))).toBe(enAdmin.errors.generic);
  });
});

describe('formatDateTime', () => {
  it('writes the UTC time, and says so', () => {
    expect(formatDateTime('2025-06-10T23:30:00.000Z', 'en')).toBe('Jun 10, 2025, 11:30 PM UTC');
    expect(formatDateTime('2025-06-10T23:30:00.000Z', 'fr')).toBe('10 juin 2025, 23:30 UTC');
  });
});

describe('compact dates of the tables', () => {
  it('fit one short line, in UTC, and say so', () => {
    expect(formatCompactDateTime('2025-06-10T23:30:00.000Z', 'fr')).toBe('10/06/2025 23:30 UTC');
    expect(formatCompactDateTime('2025-06-10T23:30:00.000Z', 'en')).toBe('06/10/2025, 23:30 UTC');
    expect(formatCompactDay('2025-06-10T23:30:00.000Z', 'fr')).toBe('10/06/2025');
    expect(formatCompactDay('2025-06-15', 'en')).toBe('06/15/2025');
  });
});

describe('the ledger reconciliation’s accounts', () => {
  // Every account a difference can name (a new one fails the type check here until it is listed).
  const ACCOUNTS: Record<LedgerDifference['account'], true> = {
    pending: true,
    payable: true,
    held: true,
    'in-payout': true,
    paid: true,
  };

  it('each have a name in both languages', () => {
    for (const account of Object.keys(ACCOUNTS)) {
      expect(enAdmin.ledger.reconcile.accounts).toHaveProperty([account]);
      expect(frAdmin.ledger.reconcile.accounts).toHaveProperty([account]);
    }
  });
});
