import {
  ATTRIBUTION_CONFIDENCE,
  IP_MATCH_WINDOW_MINUTES,
  TRACKING_ID_MAX_AGE_DAYS,
} from '@skanova/shared/attribution/schemas';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { type TestAffiliate, createTestAffiliate, insertCode } from './helpers/affiliates.ts';
import { anonymousId, attributeInstall, landingVisit } from './helpers/revenuecat.ts';

// attributeInstall (docs/product/attribution.md#install-attribution): the app's first launch is attributed by the tracking id of the
// visit, else by a code, else by a visit from the same network and platform within the hour; last
// click wins; once per app user; affiliates who no longer earn attribute nothing.

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const NOW = new Date('2025-06-10T12:00:00.000Z');

let t: TestApp;
let ipCounter = 0;
/** A fresh network address per test case, so that IP matches never see another case's visits. */
const freshIp = () => `203.0.113.${++ipCounter}`;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.now = new Date(NOW);
});

async function affiliateWithCode(): Promise<{ affiliate: TestAffiliate; code: string }> {
  const affiliate = await createTestAffiliate(t);
  const { code } = await insertCode(t, affiliate.affiliateId);
  return { affiliate, code };
}

async function install(appUserId: string) {
  const { rows } = await t.database.sql.query<{
    id: string;
    affiliate_id: string | null;
    method: string | null;
    confidence: number | null;
    click_id: string | null;
    platform: string;
    device: unknown;
    ip_hash: string | null;
  }>(
    'SELECT id::text, affiliate_id, method, confidence, click_id::text, platform, device, ip_hash FROM installs WHERE app_user_id = $1',
    [appUserId],
  );
  return rows;
}

async function clickId(trackingId: string): Promise<string> {
  const { rows } = await t.database.sql.query<{ id: string }>('SELECT id::text FROM clicks WHERE tracking_id = $1', [
    trackingId,
  ]);
  return rows[0]!.id;
}

describe('attribution rules', () => {
  it('attributes by the tracking id of the visit, and keeps the install, its device and its alias', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const trackingId = await landingVisit(t, code, { ip: freshIp() });
    const appUserId = anonymousId();
    const device = {
      userAgent: 'Skanova/1.0 iOS 17.4',
      language: 'fr-FR',
      timezone: 'Europe/Paris',
      screenResolution: '1179x2556',
      hardwareConcurrency: 6,
    };

    // From another network (mobile data after the visit on Wi-Fi): the tracking id is enough.
    const response = await attributeInstall(t, { appUserId, platform: 'ios', trackingId, device }, freshIp());
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ attributed: true, code, method: 'tracking_id' });

    const [row] = await install(appUserId);
    expect(row).toMatchObject({
      affiliate_id: affiliate.affiliateId,
      method: 'tracking_id',
      click_id: await clickId(trackingId),
      platform: 'ios',
      device,
    });
    expect(row!.confidence).toBeCloseTo(ATTRIBUTION_CONFIDENCE.tracking_id);
    expect(row!.ip_hash).toMatch(/^[\w-]{32}$/);
    const { rows: aliases } = await t.database.sql.query('SELECT alias FROM app_user_aliases WHERE install_id = $1', [
      row!.id,
    ]);
    expect(aliases).toEqual([{ alias: appUserId }]);
  });

  it('reads the tracking id as the iOS clipboard text and as the Play install referrer', async () => {
    const { code } = await affiliateWithCode();
    const other = await affiliateWithCode();
    const forms = async (trackingId: string) => [
      `sk-tid:${trackingId}`,
      `tracking_id=${trackingId}&code=${other.code}`,
      encodeURIComponent(`tracking_id=${trackingId}&code=${other.code}`),
      `  ${trackingId}\n`,
    ];
    for (const value of await forms(await landingVisit(t, code, { ip: freshIp(), platform: 'android' }))) {
      const response = await attributeInstall(t, { appUserId: anonymousId(), platform: 'android', trackingId: value });
      expect({ value, result: response.body.result }).toEqual({
        value,
        result: { attributed: true, code, method: 'tracking_id' },
      });
    }
  });

  it('uses the code the install referrer carries when its tracking id is missing or unknown', async () => {
    const { code } = await affiliateWithCode();
    for (const trackingId of [`code=${code.toLowerCase()}`, `tracking_id=unknownTrackingId123&code=${code}`]) {
      const response = await attributeInstall(t, { appUserId: anonymousId(), platform: 'android', trackingId });
      expect(response.body.result).toEqual({ attributed: true, code, method: 'code_claim' });
    }
  });

  it('attributes by a typed code, case-insensitively and with spaces around it', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const appUserId = anonymousId();
    const response = await attributeInstall(t, {
      appUserId,
      platform: 'android',
      referralCode: `  ${code.toLowerCase()} `,
    });
    expect(response.body.result).toEqual({ attributed: true, code, method: 'code_claim' });
    const [row] = await install(appUserId);
    expect(row).toMatchObject({ affiliate_id: affiliate.affiliateId, method: 'code_claim', click_id: null });
    expect(row!.confidence).toBeCloseTo(ATTRIBUTION_CONFIDENCE.code_claim);
  });

  it('tracking id beats a typed code, which beats an IP match', async () => {
    const tracked = await affiliateWithCode();
    const typed = await affiliateWithCode();
    const nearby = await affiliateWithCode();
    const ip = freshIp();
    const trackingId = await landingVisit(t, tracked.code, { ip });
    t.clock.advance(5 * MINUTE_MS);
    // The latest visit from this network is the third affiliate's: the IP rule would pick it.
    await landingVisit(t, nearby.code, { ip });
    t.clock.advance(5 * MINUTE_MS);

    const all = await attributeInstall(
      t,
      { appUserId: anonymousId(), platform: 'ios', trackingId, referralCode: typed.code },
      ip,
    );
    expect(all.body.result).toEqual({ attributed: true, code: tracked.code, method: 'tracking_id' });
    const codeAndIp = await attributeInstall(
      t,
      { appUserId: anonymousId(), platform: 'ios', referralCode: typed.code },
      ip,
    );
    expect(codeAndIp.body.result).toEqual({ attributed: true, code: typed.code, method: 'code_claim' });
    const ipOnly = await attributeInstall(t, { appUserId: anonymousId(), platform: 'ios' }, ip);
    expect(ipOnly.body.result).toEqual({ attributed: true, code: nearby.code, method: 'ip_match' });
  });

  it('matches by IP and platform: the last click wins, within the hour only', async () => {
    const first = await affiliateWithCode();
    const last = await affiliateWithCode();
    const ip = freshIp();
    await landingVisit(t, first.code, { ip, platform: 'android' });
    t.clock.advance(10 * MINUTE_MS);
    await landingVisit(t, last.code, { ip, platform: 'android' });

    t.clock.advance((IP_MATCH_WINDOW_MINUTES - 1) * MINUTE_MS);
    const appUserId = anonymousId();
    const matched = await attributeInstall(t, { appUserId, platform: 'android' }, ip);
    expect(matched.body.result).toEqual({ attributed: true, code: last.code, method: 'ip_match' });
    const [row] = await install(appUserId);
    expect(row!.confidence).toBeCloseTo(ATTRIBUTION_CONFIDENCE.ip_match);

    // 61 minutes after the last visit (and 71 after the first): nothing matches.
    t.clock.advance(2 * MINUTE_MS);
    const late = await attributeInstall(t, { appUserId: anonymousId(), platform: 'android' }, ip);
    expect(late.body.result).toEqual({ attributed: false, code: null, method: null });
  });

  it('does not match a visit from another platform, another network, or a bot', async () => {
    const { code } = await affiliateWithCode();
    const ip = freshIp();
    await landingVisit(t, code, { ip, platform: 'ios' });
    await landingVisit(t, code, {
      ip,
      platform: 'android',
      userAgent: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    });
    t.clock.advance(MINUTE_MS);
    const none = { attributed: false, code: null, method: null };
    expect((await attributeInstall(t, { appUserId: anonymousId(), platform: 'android' }, ip)).body.result).toEqual(
      none,
    );
    expect((await attributeInstall(t, { appUserId: anonymousId(), platform: 'ios' }, freshIp())).body.result).toEqual(
      none,
    );
    expect((await attributeInstall(t, { appUserId: anonymousId(), platform: 'ios' }, ip)).body.result).toEqual({
      attributed: true,
      code,
      method: 'ip_match',
    });
  });

  it('honours a tracking id as long as its cookie lives', async () => {
    const { code } = await affiliateWithCode();
    const trackingId = await landingVisit(t, code, { ip: freshIp() });
    t.clock.advance((TRACKING_ID_MAX_AGE_DAYS - 1) * DAY_MS);
    expect(
      (await attributeInstall(t, { appUserId: anonymousId(), platform: 'ios', trackingId })).body.result.attributed,
    ).toBe(true);
    t.clock.advance(2 * DAY_MS);
    expect(
      (await attributeInstall(t, { appUserId: anonymousId(), platform: 'ios', trackingId })).body.result.attributed,
    ).toBe(false);
  });

  it('answers "not attributed" for unknown or unreadable tracking ids and codes, never an error', async () => {
    const none = { attributed: false, code: null, method: null };
    const cases = [
      { trackingId: 'AAAAAAAAAAAAAAAAAAAAAAAA' },
      { trackingId: 'sk-tid:' },
      { trackingId: 'tracking_id=&code=' },
      { trackingId: 'not a tracking id at all, just something on the clipboard' },
      { trackingId: '%E0%A4%A' },
      { referralCode: 'NOSUCHCODE' },
      { referralCode: 'a!' },
      { referralCode: '' },
      { trackingId: null, referralCode: null, device: null },
    ];
    for (const extra of cases) {
      const response = await attributeInstall(t, { appUserId: anonymousId(), platform: 'ios', ...extra }, freshIp());
      expect({ extra, status: response.status, result: response.body.result }).toEqual({
        extra,
        status: 200,
        result: none,
      });
    }
  });

  it('refuses malformed requests with invalid-argument', async () => {
    const before = await t.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM installs');
    const bad = [
      {},
      { appUserId: anonymousId() },
      { appUserId: anonymousId(), platform: 'desktop' },
      { appUserId: '', platform: 'ios' },
      { appUserId: 'x'.repeat(300), platform: 'ios' },
      { appUserId: anonymousId(), platform: 'ios', trackingId: 'x'.repeat(3000) },
      { appUserId: anonymousId(), platform: 'ios', referralCode: 42 },
      { appUserId: anonymousId(), platform: 'ios', device: { userAgent: 'a\u0000b' } },
      { appUserId: anonymousId(), platform: 'ios', device: { language: 'fr\uD800' } },
      { appUserId: anonymousId(), platform: 'ios', device: { colorDepth: 1e9 } },
      { appUserId: anonymousId(), platform: 'ios', device: { timestamp: 'yesterday' } },
    ];
    for (const data of bad) {
      const response = await attributeInstall(t, data);
      expect({ data, status: response.status, code: response.body.error?.status }).toEqual({
        data,
        status: 400,
        code: 'INVALID_ARGUMENT',
      });
    }
    expect((await t.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM installs')).rows).toEqual(
      before.rows,
    );
  });
});

describe('affiliates who no longer earn', () => {
  const states: [string, (affiliate: TestAffiliate) => Promise<unknown>][] = [
    [
      'disabled',
      (a) =>
        t.database.sql.query(
          'UPDATE auth_users SET banned = true WHERE id = (SELECT user_id FROM affiliates WHERE id = $1)',
          [a.affiliateId],
        ),
    ],
    ['refused', (a) => t.database.sql.query("UPDATE affiliates SET status = 'refused' WHERE id = $1", [a.affiliateId])],
    ['pending', (a) => t.database.sql.query("UPDATE affiliates SET status = 'pending' WHERE id = $1", [a.affiliateId])],
    ['deleted', (a) => t.database.sql.query('UPDATE affiliates SET deleted_at = now() WHERE id = $1', [a.affiliateId])],
  ];

  it.each(states)('a %s affiliate attributes nothing; the next rule decides', async (_state, disable) => {
    const gone = await affiliateWithCode();
    const active = await affiliateWithCode();
    const ip = freshIp();
    const trackingId = await landingVisit(t, gone.code, { ip });
    await disable(gone.affiliate);

    const byCode = await attributeInstall(
      t,
      { appUserId: anonymousId(), platform: 'ios', trackingId, referralCode: active.code },
      ip,
    );
    expect(byCode.body.result).toEqual({ attributed: true, code: active.code, method: 'code_claim' });
    const typedGone = await attributeInstall(
      t,
      { appUserId: anonymousId(), platform: 'ios', referralCode: gone.code },
      freshIp(),
    );
    expect(typedGone.body.result).toEqual({ attributed: false, code: null, method: null });
    // The latest visit of this network is the disabled affiliate's: an older one does not take its place.
    const ipOnly = await attributeInstall(t, { appUserId: anonymousId(), platform: 'ios', trackingId }, ip);
    expect(ipOnly.body.result).toEqual({ attributed: false, code: null, method: null });
  });

  it('a ban that has expired no longer stops the links', async () => {
    const { affiliate, code } = await affiliateWithCode();
    await t.database.sql.query(
      'UPDATE auth_users SET banned = true, ban_expires = $2 WHERE id = (SELECT user_id FROM affiliates WHERE id = $1)',
      [affiliate.affiliateId, new Date(NOW.getTime() - DAY_MS).toISOString()],
    );
    expect(
      (await attributeInstall(t, { appUserId: anonymousId(), platform: 'ios', referralCode: code })).body.result
        .attributed,
    ).toBe(true);
  });
});

describe('one attribution per app user', () => {
  it('answers the first attribution to every later call', async () => {
    const first = await affiliateWithCode();
    const second = await affiliateWithCode();
    const appUserId = anonymousId();
    expect((await attributeInstall(t, { appUserId, platform: 'ios', referralCode: first.code })).body.result.code).toBe(
      first.code,
    );
    const again = await attributeInstall(t, {
      appUserId,
      platform: 'ios',
      referralCode: second.code,
      trackingId: await landingVisit(t, second.code, { ip: freshIp() }),
    });
    expect(again.body.result).toEqual({ attributed: true, code: first.code, method: 'code_claim' });
    expect(await install(appUserId)).toHaveLength(1);
  });

  it('lets an install left unattributed be claimed later by a typed code, not by an IP match', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const nearby = await affiliateWithCode();
    const ip = freshIp();
    const appUserId = anonymousId();
    expect((await attributeInstall(t, { appUserId, platform: 'ios' }, ip)).body.result.attributed).toBe(false);
    await landingVisit(t, nearby.code, { ip });
    expect((await attributeInstall(t, { appUserId, platform: 'ios' }, ip)).body.result.attributed).toBe(false);

    const claimed = await attributeInstall(t, { appUserId, platform: 'ios', referralCode: code.toLowerCase() }, ip);
    expect(claimed.body.result).toEqual({ attributed: true, code, method: 'code_claim' });
    const rows = await install(appUserId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ affiliate_id: affiliate.affiliateId, method: 'code_claim' });
  });

  it('simultaneous first launches of one app user make one install with one answer', async () => {
    const codes = await Promise.all(Array.from({ length: 4 }, () => affiliateWithCode()));
    const appUserId = anonymousId();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        attributeInstall(t, { appUserId, platform: 'android', referralCode: codes[i % codes.length]!.code }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    const rows = await install(appUserId);
    expect(rows).toHaveLength(1);
    const winner = codes.find((entry) => entry.affiliate.affiliateId === rows[0]!.affiliate_id)!;
    for (const answer of answers)
      expect(answer.body.result).toEqual({ attributed: true, code: winner.code, method: 'code_claim' });
    const { rows: aliases } = await t.database.sql.query('SELECT alias FROM app_user_aliases WHERE install_id = $1', [
      rows[0]!.id,
    ]);
    expect(aliases).toEqual([{ alias: appUserId }]);
  });
});

describe('rate limit', () => {
  it('limits attributions per client address', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < t.config.RATE_LIMIT_ATTRIBUTION_PER_MINUTE; i++) {
      statuses.push((await attributeInstall(t, { appUserId: anonymousId(), platform: 'ios' }, ip)).status);
    }
    expect(statuses).toEqual(Array(t.config.RATE_LIMIT_ATTRIBUTION_PER_MINUTE).fill(200));
    const refused = await attributeInstall(t, { appUserId: anonymousId(), platform: 'ios' }, ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error?.status).toBe('RESOURCE_EXHAUSTED');
  });
});
