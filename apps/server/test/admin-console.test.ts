import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from './helpers/app.ts';
import {
  type TestAffiliate,
  callFn,
  createTestAffiliate,
  insertCode,
  insertConversion,
  insertPayout,
} from './helpers/affiliates.ts';
import { type TestOperator, createTestOperator } from './helpers/operators.ts';

// The console's other lists and actions (docs/product/routes-and-screens.md#operator-console, docs/product/rules-and-constants.md#security): conversions (filters, reversal with a
// reason), support tickets (list, mark handled), web vitals (p75 per page and metric) and the
// audit log (newest first, by action), with exact figures from rows written here.

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = new Date('2025-06-10T12:00:00.000Z');

let t: TestApp;
let operator: TestOperator;
beforeAll(async () => {
  t = await createTestApp();
  operator = await createTestOperator(t);
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.now = new Date(NOW);
});

async function admin(name: string, data: unknown) {
  const response = await callFn(t, name, data, operator.cookie);
  return response;
}

async function ok(name: string, data: unknown) {
  const response = await admin(name, data);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result;
}

describe('adminListConversions and adminReverseConversion', () => {
  let ana: TestAffiliate;
  let ben: TestAffiliate;
  let anaCode: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ana = await createTestAffiliate(t, { firstName: 'Ana', lastName: 'Conversion' });
    ben = await createTestAffiliate(t, { firstName: 'Ben', lastName: 'Conversion' });
    const code = await insertCode(t, ana.affiliateId, { code: 'ANAC0DE2' });
    anaCode = code.code;
    const at = (iso: string) => new Date(iso);
    ids.march = String(
      await insertConversion(t, ana.affiliateId, {
        codeId: code.id,
        status: 'approved',
        occurredAt: at('2025-03-31T23:59:59.000Z'),
        approvedAt: at('2025-04-30T23:59:59.000Z'),
      }),
    );
    ids.april = String(
      await insertConversion(t, ana.affiliateId, {
        codeId: code.id,
        status: 'pending',
        cents: 400,
        occurredAt: at('2025-04-01T00:00:00.000Z'),
      }),
    );
    ids.noCode = String(
      await insertConversion(t, ana.affiliateId, {
        codeId: null,
        status: 'pending',
        occurredAt: at('2025-05-20T10:00:00.000Z'),
      }),
    );
    const payout = await insertPayout(t, ana.affiliateId, {
      amountCents: 2000,
      status: 'paid',
      periodStart: '2025-02-01',
      paidAt: at('2025-03-15T09:00:00.000Z'),
    });
    ids.paid = String(
      await insertConversion(t, ana.affiliateId, {
        codeId: code.id,
        status: 'paid',
        occurredAt: at('2025-01-10T08:00:00.000Z'),
        payoutId: payout,
      }),
    );
    ids.ben = String(
      await insertConversion(t, ben.affiliateId, { status: 'pending', occurredAt: at('2025-04-15T00:00:00.000Z') }),
    );
  });

  const listIds = async (filters: Record<string, unknown>) =>
    ((await ok('adminListConversions', filters)).items as { id: string }[]).map((item) => item.id);

  it('lists every affiliate’s conversions newest first, with the affiliate and the code', async () => {
    const page = await ok('adminListConversions', { affiliateId: ana.affiliateId });
    expect(page.total).toBe(4);
    expect(page.items.map((item: { id: string }) => item.id)).toEqual([ids.noCode, ids.april, ids.march, ids.paid]);
    expect(page.items[2]).toEqual({
      id: ids.march,
      affiliateId: ana.affiliateId,
      affiliateName: 'Ana Conversion',
      affiliateEmail: ana.email,
      code: 'ANAC0DE2',
      store: null,
      productId: null,
      occurredAt: '2025-03-31T23:59:59.000Z',
      commissionCents: 200,
      rateTier: 'standard',
      // Written without its pricing inputs (a fixture, as an import would be): the rule version alone.
      why: {
        commissionKind: 'first-purchase',
        defaultGroup: true,
        groupName: 'Default',
        ruleVersion: 1,
        pricing: null,
      },
      status: 'approved',
      approvedAt: '2025-04-30T23:59:59.000Z',
      reversedAt: null,
      reversalReason: null,
      refundedAt: null,
      payoutId: null,
    });
    expect(page.items[0]).toMatchObject({ code: null, commissionCents: 200 });
    expect(await listIds({})).toEqual(expect.arrayContaining([ids.ben, ids.march]));
  });

  it('filters by status, code (any case) and UTC days, both ends included', async () => {
    expect(await listIds({ status: 'pending', affiliateId: ana.affiliateId })).toEqual([ids.noCode, ids.april]);
    expect(await listIds({ code: anaCode.toLowerCase() })).toEqual([ids.april, ids.march, ids.paid]);
    expect(await listIds({ from: '2025-04-01', to: '2025-04-30' })).toEqual([ids.ben, ids.april]);
    expect(await listIds({ to: '2025-03-31', affiliateId: ana.affiliateId })).toEqual([ids.march, ids.paid]);
    expect(await listIds({ from: '2025-04-01', to: '2025-04-01' })).toEqual([ids.april]);
    expect(await listIds({ code: 'NOSUCHCD' })).toEqual([]);
    const paged = await ok('adminListConversions', { affiliateId: ana.affiliateId, pageSize: 3, page: 2 });
    expect([paged.total, paged.items.map((item: { id: string }) => item.id)]).toEqual([4, [ids.paid]]);
  });

  it('refuses malformed filters', async () => {
    for (const data of [
      { from: 'yesterday' },
      { to: '2025-02-30' },
      { status: 'refunded' },
      { code: '' },
      { affiliateId: 'a b' },
      { pageSize: 0 },
    ]) {
      expect({ data, status: (await admin('adminListConversions', data)).status }).toEqual({ data, status: 400 });
    }
  });

  it('reverses a commission not yet paid, once, with the operator’s reason', async () => {
    const first = await ok('adminReverseConversion', { conversionId: ids.april, reason: 'Fraudulent install farm' });
    expect(first).toEqual({ conversionId: ids.april, outcome: 'reversed' });
    const [row] = (await ok('adminListConversions', { affiliateId: ana.affiliateId, status: 'reversed' })).items;
    expect(row).toMatchObject({
      id: ids.april,
      status: 'reversed',
      reversalReason: 'Fraudulent install farm',
      reversedAt: NOW.toISOString(),
    });
    expect(await ok('adminReverseConversion', { conversionId: ids.april, reason: 'Again' })).toEqual({
      conversionId: ids.april,
      outcome: 'already-reversed',
    });

    const { rows } = await t.database.sql.query<{ actor: string; action: string }>(
      'SELECT actor, action FROM audit_log WHERE subject = $1 ORDER BY id',
      [ids.april],
    );
    expect(rows).toEqual([{ actor: operator.userId, action: 'conversion.reversed' }]);
    const stats = (await callFn(t, 'getAffiliateStats', null, ana.cookie)).body.result;
    expect(stats.totalConversions).toBe(3);
  });

  it('claws a paid commission back from the next payout', async () => {
    const before = (await callFn(t, 'getAffiliateStats', null, ana.cookie)).body.result.totalEarningsCents;
    expect(
      await ok('adminReverseConversion', { conversionId: ids.paid, reason: 'Refunded by the store support' }),
    ).toEqual({ conversionId: ids.paid, outcome: 'clawed-back' });
    const [row] = (await ok('adminListConversions', { affiliateId: ana.affiliateId, status: 'paid' })).items;
    expect(row).toMatchObject({ id: ids.paid, refundedAt: NOW.toISOString() });
    expect((await callFn(t, 'getAffiliateStats', null, ana.cookie)).body.result.totalEarningsCents).toBe(before - 200);
  });

  it('answers not-found for an unknown conversion and refuses a reversal without a reason', async () => {
    const unknown = await admin('adminReverseConversion', { conversionId: '999999999', reason: 'Nope' });
    expect([unknown.status, unknown.body.error?.status]).toEqual([404, 'NOT_FOUND']);
    for (const data of [
      { conversionId: ids.march },
      { conversionId: ids.march, reason: '  ' },
      { conversionId: '12abc', reason: 'x' },
      { conversionId: 7, reason: 'x' },
      { conversionId: '9999999999999999', reason: 'x' },
    ]) {
      expect({ data, status: (await admin('adminReverseConversion', data)).status }).toEqual({ data, status: 400 });
    }
    expect((await ok('adminListConversions', { affiliateId: ana.affiliateId, status: 'approved' })).items).toHaveLength(
      1,
    );
  });
});

describe('adminListTickets and adminMarkTicketHandled', () => {
  const tickets: string[] = [];
  beforeAll(async () => {
    for (const [index, name] of ['Alice', 'Bruno', 'Chloé'].entries()) {
      t.clock.now = new Date(NOW.getTime() + index * 60_000);
      const response = await callFn(
        t,
        'submitContactForm',
        {
          name,
          email: `${name
            .toLowerCase()
            .normalize('NFD')
            .replace(/[^a-z]/g, '')}@example.com`,
          subject: 'account',
          message: `Help me please, ${name} here.`,
          language: 'fr',
        },
        undefined,
        `10.62.0.${index}`,
      );
      expect(response.status).toBe(200);
      tickets.push(response.body.result.ticketId);
    }
  });

  it('lists the tickets newest first, with what the visitor wrote', async () => {
    const page = await ok('adminListTickets', {});
    expect(page.total).toBe(3);
    expect(page.items.map((ticket: { id: string }) => ticket.id)).toEqual([...tickets].reverse());
    expect(page.items[2]).toEqual({
      id: tickets[0],
      name: 'Alice',
      email: 'alice@example.com',
      subject: 'account',
      message: 'Help me please, Alice here.',
      language: 'fr',
      status: 'open',
      createdAt: NOW.toISOString(),
      handledAt: null,
    });
  });

  it('marks a ticket handled once, audit-logged', async () => {
    t.clock.advance(DAY_MS);
    const handled = await ok('adminMarkTicketHandled', { ticketId: tickets[1] });
    expect(handled).toMatchObject({
      id: tickets[1],
      status: 'handled',
      handledAt: new Date(NOW.getTime() + DAY_MS).toISOString(),
    });
    t.clock.advance(DAY_MS);
    expect(await ok('adminMarkTicketHandled', { ticketId: tickets[1] })).toEqual(handled);

    const ids = async (status: string) =>
      ((await ok('adminListTickets', { status })).items as { id: string }[]).map((ticket) => ticket.id);
    expect(await ids('open')).toEqual([tickets[2], tickets[0]]);
    expect(await ids('handled')).toEqual([tickets[1]]);
    const { rows } = await t.database.sql.query('SELECT actor, action FROM audit_log WHERE subject = $1', [tickets[1]]);
    expect(rows).toEqual([{ actor: operator.userId, action: 'ticket.handled' }]);
  });

  it('answers not-found for an unknown ticket and refuses a malformed id', async () => {
    const unknown = await admin('adminMarkTicketHandled', { ticketId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    for (const ticketId of ['not-a-uuid', '', 12])
      expect((await admin('adminMarkTicketHandled', { ticketId })).status).toBe(400);
    expect((await admin('adminListTickets', { status: 'closed' })).status).toBe(400);
  });
});

describe('adminGetWebVitals', () => {
  async function vital(page: string, name: string, values: number[], at: Date) {
    for (const value of values) {
      await t.database.sql.query('INSERT INTO web_vitals (page, name, value, created_at) VALUES ($1, $2, $3, $4)', [
        page,
        name,
        value,
        at.toISOString(),
      ]);
    }
  }

  beforeAll(async () => {
    const recent = new Date(NOW.getTime() - 2 * DAY_MS);
    await vital('/', 'LCP', [1000, 4000, 2000, 3000], recent);
    await vital('/', 'CLS', [0.25, 0.75, 0.5], recent);
    await vital('/support', 'TTFB', [2000, 3000], recent);
    await vital('/support', 'INP', [100], recent);
    // Eight days ago: outside the default week.
    await vital('/', 'LCP', [9000, 9000, 9000, 9000, 9000, 9000], new Date(NOW.getTime() - 8 * DAY_MS));
    await vital('/terms', 'FCP', [1200], new Date(NOW.getTime() - 8 * DAY_MS));
  });

  it('answers the continuous 75th percentile per page and metric over the last week, rated', async () => {
    expect(await ok('adminGetWebVitals', {})).toEqual({
      days: 7,
      since: new Date(NOW.getTime() - 7 * DAY_MS).toISOString(),
      vitals: [
        // (n − 1) × 0.75 = 2.25 → 3000 + 0.25 × (4000 − 3000)
        { page: '/', name: 'LCP', p75: 3250, samples: 4, rating: 'needs-improvement' },
        // 1.5 → 0.5 + 0.5 × (0.75 − 0.5)
        { page: '/', name: 'CLS', p75: 0.625, samples: 3, rating: 'poor' },
        { page: '/support', name: 'INP', p75: 100, samples: 1, rating: 'good' },
        // 0.75 → 2000 + 0.75 × 1000
        { page: '/support', name: 'TTFB', p75: 2750, samples: 2, rating: 'poor' },
      ],
    });
  });

  it('reads further back when asked', async () => {
    const { vitals } = await ok('adminGetWebVitals', { days: 30 });
    // Ten LCP samples: 9 × 0.75 = 6.75 → between the 7th and 8th (9000, 9000).
    expect(vitals.find((entry: { page: string; name: string }) => entry.page === '/' && entry.name === 'LCP')).toEqual({
      page: '/',
      name: 'LCP',
      p75: 9000,
      samples: 10,
      rating: 'poor',
    });
    expect(vitals.find((entry: { page: string }) => entry.page === '/terms')).toEqual({
      page: '/terms',
      name: 'FCP',
      p75: 1200,
      samples: 1,
      rating: 'good',
    });
    for (const days of [0, 91, 1.5, '7']) expect((await admin('adminGetWebVitals', { days })).status).toBe(400);
  });

  it('keeps the fifty most measured pages', async () => {
    for (let i = 0; i < 55; i++) await vital(`/noise-${i}`, 'TTFB', [100], new Date(NOW.getTime() - DAY_MS));
    const { vitals } = await ok('adminGetWebVitals', {});
    const pages = new Set(vitals.map((entry: { page: string }) => entry.page));
    expect(pages.size).toBe(50);
    expect(pages.has('/')).toBe(true);
    expect(pages.has('/support')).toBe(true);
  });
});

describe('adminListAuditLog', () => {
  beforeAll(async () => {
    const entries: [string, string, number][] = [
      ['affiliate.approved', 'a-1', 3],
      ['affiliate.disabled', 'a-2', 2],
      ['payout.exported', 'p-1', 1],
      ['affiliate_other', 'x-1', 0],
    ];
    for (const [action, subject, daysAgo] of entries) {
      await t.database.sql.query(
        'INSERT INTO audit_log (actor, action, subject, details, created_at) VALUES ($1, $2, $3, $4, $5)',
        [
          operator.userId,
          action,
          subject,
          JSON.stringify({ reason: `because ${subject}` }),
          new Date(Date.UTC(2030, 0, 10 - daysAgo)).toISOString(),
        ],
      );
    }
  });

  it('lists newest first with the actor’s e-mail, filtered by an action or its beginning, literally', async () => {
    const page = await ok('adminListAuditLog', { pageSize: 3 });
    expect(page.items.map((entry: { subject: string }) => entry.subject)).toEqual(['x-1', 'p-1', 'a-2']);
    expect(page.items[1]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      actor: operator.userId,
      actorEmail: operator.email,
      action: 'payout.exported',
      subject: 'p-1',
      details: { reason: 'because p-1' },
      createdAt: '2030-01-09T00:00:00.000Z',
      affiliate: null,
    });
    const subjects = async (action: string) =>
      ((await ok('adminListAuditLog', { action })).items as { subject: string }[]).map((entry) => entry.subject);
    expect((await subjects('affiliate.')).slice(0, 2)).toEqual(['a-2', 'a-1']);
    expect(await subjects('affiliate.')).not.toContain('x-1');
    expect(await subjects('affiliate_')).toEqual(['x-1']);
    expect(await subjects('payout.exported')).toEqual(['p-1']);
    expect(await subjects('%')).toEqual([]);
    const second = await ok('adminListAuditLog', { pageSize: 3, page: 2 });
    expect(second.total).toBe(page.total);
    expect(second.items[0].subject).toBe('a-1');
  });

  it('names the affiliate an entry is about: its subject, or the affiliateId of its details', async () => {
    const clara = await createTestAffiliate(t, { firstName: 'Clara', lastName: 'Audit' });
    const at = new Date(Date.UTC(2031, 0, 1)).toISOString();
    await t.database.sql.query(
      'INSERT INTO audit_log (actor, action, subject, details, created_at) VALUES ($1, $2, $3, $4, $5), ($1, $6, $7, $8, $5)',
      [
        operator.userId,
        'affiliate.disabled',
        clara.affiliateId,
        JSON.stringify({ reason: 'spam', previousStatus: 'active', wasDisabled: false }),
        at,
        'payout.paid',
        'payout-uuid',
        JSON.stringify({ affiliateId: clara.affiliateId, from: 'sent', amountCents: 2400 }),
      ],
    );
    const { items } = await ok('adminListAuditLog', { pageSize: 2 });
    const clarasEntry = { id: clara.affiliateId, name: 'Clara Audit', email: clara.email };
    expect(items.map((entry: { action: string; affiliate: unknown }) => [entry.action, entry.affiliate])).toEqual(
      expect.arrayContaining([
        ['affiliate.disabled', clarasEntry],
        ['payout.paid', clarasEntry],
      ]),
    );
  });
});
