import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/client.ts';

// The demo programme (`npm run demo`): six months of a living affiliate programme, played through
// the product's own entry points — signup, code generation, landing-page visits, the app's install
// attribution, RevenueCat webhooks, the commission and payout jobs and the operator's payout
// functions — on a clock that the seed moves forward. Nothing is written behind the product's back,
// so every figure on the dashboards follows from the same rules as in production. The clock stops at
// the moment the seed started ("now"): an event that would come later (a trial that converts in two
// days, a refund next week) has not happened yet, and each affiliate joins on a day of the history,
// before their first visit.

export const DEMO_PASSWORD = 'demo-password-1';
export const DEMO_OPERATOR = { email: 'operator@demo.skanova.test', password: 'operator-password-1' };
export const DEMO_WEBHOOK_AUTH = 'Bearer demo-revenuecat-webhook-secret';

interface DemoAffiliate {
  email: string;
  firstName: string;
  lastName: string;
  language: 'fr' | 'en';
  payment: { paymentMethod: 'paypal' | 'bank_transfer' | 'later'; paymentDetails?: Record<string, string> };
  /** Days after the programme's start (six months ago) on which the affiliate signs up. */
  joinsAfterDays: number;
  /** Counted visits per month on each code, and the share of them that subscribe. */
  visitsPerMonth: number;
  conversionRate: number;
  codes: string[];
}

export const DEMO_AFFILIATES: DemoAffiliate[] = [
  {
    email: 'camille@demo.skanova.test',
    firstName: 'Camille',
    lastName: 'Laurent',
    language: 'fr',
    payment: { paymentMethod: 'paypal', paymentDetails: { paypalEmail: 'camille.paypal@demo.skanova.test' } },
    joinsAfterDays: 0,
    visitsPerMonth: 90,
    conversionRate: 0.25,
    codes: ['Instagram', 'YouTube', 'Blog'],
  },
  {
    email: 'james@demo.skanova.test',
    firstName: 'James',
    lastName: 'Carter',
    language: 'en',
    payment: {
      paymentMethod: 'bank_transfer',
      paymentDetails: {
        bankName: 'Demo Bank',
        bankIban: 'DE89 3704 0044 0532 0130 00',
        bic: 'COBADEFFXXX',
        accountHolder: 'James Carter',
      },
    },
    joinsAfterDays: 23,
    visitsPerMonth: 40,
    conversionRate: 0.12,
    codes: ['Newsletter', 'TikTok'],
  },
  {
    email: 'ines@demo.skanova.test',
    firstName: 'Inès',
    lastName: 'Morel',
    language: 'fr',
    payment: { paymentMethod: 'later' },
    joinsAfterDays: 71,
    visitsPerMonth: 12,
    conversionRate: 0.1,
    codes: ['Flyer'],
  },
];

const DAY_MS = 86_400_000;
const MONTHS = 6;

/** A small deterministic generator, so every demo looks the same. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

type Action = { at: number; run: () => Promise<void> };

export interface DemoSummary {
  affiliates: { email: string; password: string; name: string }[];
  operator: { email: string; password: string };
  /** The seed's clock at the end ("now" when it started): no event of the programme is later. */
  now: Date;
}

/**
 * Seeds the demo into `database` (already migrated, empty). `createOperator` makes the operator's
 * account (the CLI's function), so the seed does not repeat it.
 */
export async function seedDemo(
  config: Config,
  database: Database,
  createOperator: (app: AppContext, email: string, password: string) => Promise<void>,
): Promise<DemoSummary> {
  const end = Date.now();
  let clock = end - MONTHS * 30 * DAY_MS;
  const { app, context } = await buildApp({
    config: { ...config, REVENUECAT_WEBHOOK_AUTH: DEMO_WEBHOOK_AUTH, AFFILIATE_APPROVAL: 'auto' },
    database,
    now: () => new Date(clock),
    serveSite: false,
    logger: false,
  });
  await app.ready();
  const call = callFunction(app, config.publicOrigin);
  const rand = random(42);
  const actions: Action[] = [];
  let appUsers = 0;

  // The operator's set-password link is checked by the auth library against the real time.
  const programmeStart = clock;
  clock = end;
  await createOperator(context, DEMO_OPERATOR.email, DEMO_OPERATOR.password);
  const operatorCookie = await signIn(app, config.publicOrigin, DEMO_OPERATOR.email, DEMO_OPERATOR.password);
  clock = programmeStart;

  /** Plays `run` at `at`, if that moment has come: nothing is dated after the seed's "now". */
  const schedule = (at: number, run: () => Promise<void>) => {
    if (at <= end) actions.push({ at, run });
  };

  // Each affiliate signs up on their day, makes their codes, then their audience visits them.
  for (const affiliate of DEMO_AFFILIATES) {
    const joinedAt = programmeStart + affiliate.joinsAfterDays * DAY_MS + 9 * 3_600_000;
    schedule(joinedAt, async () => {
      const codes = await signUp(affiliate);
      scheduleVisits(affiliate, codes, joinedAt);
    });
  }

  async function signUp(affiliate: DemoAffiliate): Promise<string[]> {
    const cookie = await call('createAffiliate', {
      email: affiliate.email,
      password: DEMO_PASSWORD,
      firstName: affiliate.firstName,
      lastName: affiliate.lastName,
      language: affiliate.language,
      termsAccepted: true,
      ...affiliate.payment,
    }).then((answer) => answer.cookie);
    const codes: string[] = [];
    for (const description of affiliate.codes) {
      const { result } = await call('generateReferralCode', { description }, { cookie });
      codes.push((result as { code: string }).code);
    }
    return codes;
  }

  /** The visits of an affiliate's audience from the day they joined; some visitors subscribe. */
  function scheduleVisits(affiliate: DemoAffiliate, codes: string[], joinedAt: number) {
    for (let month = 0; month < MONTHS; month += 1) {
      const monthStart = programmeStart + month * 30 * DAY_MS;
      // More visits as the affiliate's audience grows; none before they joined.
      const visits = Math.round(affiliate.visitsPerMonth * (0.5 + month / MONTHS));
      for (let index = 0; index < visits; index += 1) {
        const code = codes[Math.floor(rand() * codes.length)]!;
        const at = monthStart + Math.floor(rand() * 30 * DAY_MS);
        const subscribes = rand() < affiliate.conversionRate;
        const platform = rand() < 0.55 ? 'ios' : 'android';
        const refunded = subscribes && rand() < 0.05;
        const trial = subscribes && rand() < 0.3;
        if (at <= joinedAt) continue;
        const visitor = `${affiliate.email}-${month}-${index}`;
        schedule(at, async () => {
          const visit = visitPayload(code, platform, visitor, at);
          const { result } = await call('storePreInstallData', visit, {
            ip: fakeIp(visitor),
            userAgent: visit.fingerprint.userAgent,
          });
          if (!subscribes) return;
          appUsers += 1;
          const appUserId = `$RCAnonymousID:demo${appUsers.toString().padStart(5, '0')}`;
          const trackingId = (result as { trackingId: string }).trackingId;
          scheduleSubscription({ appUserId, platform, trackingId, visitor, at, trial, refunded });
        });
      }
    }
  }

  /** The app's install, then a purchase (after a 3-day trial for some), and for a few a refund. */
  function scheduleSubscription(user: {
    appUserId: string;
    platform: 'ios' | 'android';
    trackingId: string;
    visitor: string;
    at: number;
    trial: boolean;
    refunded: boolean;
  }) {
    const { appUserId, platform, trackingId, visitor } = user;
    const installAt = user.at + 10 * 60_000;
    schedule(installAt, () =>
      call('attributeInstall', { appUserId, platform, trackingId }, { ip: fakeIp(visitor) }).then(() => {}),
    );
    const purchaseAt = installAt + (user.trial ? 3 : 0) * DAY_MS + 3_600_000;
    if (user.trial) {
      const trialAt = installAt + 60_000;
      schedule(trialAt, () =>
        webhook(app, event('INITIAL_PURCHASE', appUserId, trialAt, { period_type: 'TRIAL', price: 0 })),
      );
      schedule(purchaseAt, () => webhook(app, event('RENEWAL', appUserId, purchaseAt, { is_trial_conversion: true })));
    } else {
      schedule(purchaseAt, () => webhook(app, event('INITIAL_PURCHASE', appUserId, purchaseAt)));
    }
    if (user.refunded) {
      const refundAt = purchaseAt + 10 * DAY_MS;
      schedule(refundAt, () =>
        webhook(app, event('CANCELLATION', appUserId, refundAt, { cancel_reason: 'CUSTOMER_SUPPORT' })),
      );
    }
  }

  // Each past payday: the operator runs the payouts, exports and sends them that afternoon, and marks
  // them paid when the transfers arrive two days later.
  for (let month = 1; month <= MONTHS; month += 1) {
    const start = new Date(programmeStart);
    const payday = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + month, 15);
    if (payday + 3 * DAY_MS >= end) continue;
    const paydayText = new Date(payday).toISOString().slice(0, 10);
    schedule(payday + 9 * 3_600_000, async () => {
      await call('adminRunPayouts', { payday: paydayText }, { cookie: operatorCookie });
    });
    const listPayouts = async (status: 'scheduled' | 'sent') => {
      const { result } = await call('adminListPayouts', { payday: paydayText, status }, { cookie: operatorCookie });
      return (result as { payouts: { id: string; method: string }[] }).payouts;
    };
    schedule(payday + 14 * 3_600_000, async () => {
      const payouts = await listPayouts('scheduled');
      if (payouts.length === 0) return;
      if (payouts.some((payout) => payout.method === 'paypal')) {
        await call('adminExportPayouts', { kind: 'paypal', payday: paydayText }, { cookie: operatorCookie });
      }
      if (payouts.some((payout) => payout.method === 'bank_transfer')) {
        await call(
          'adminExportPayouts',
          { kind: 'sepa', payday: paydayText, exchangeRate: '0.9200' },
          { cookie: operatorCookie },
        );
      }
      const payoutIds = payouts.map((payout) => payout.id);
      await call(
        'adminMarkPayouts',
        { payoutIds, status: 'sent', reference: `DEMO-${paydayText}` },
        { cookie: operatorCookie },
      );
    });
    schedule(payday + 2 * DAY_MS, async () => {
      const payoutIds = (await listPayouts('sent')).map((payout) => payout.id);
      if (payoutIds.length > 0)
        await call('adminMarkPayouts', { payoutIds, status: 'paid' }, { cookie: operatorCookie });
    });
  }

  // Play the months in order (an action may schedule later ones).
  while (actions.length > 0) {
    actions.sort((a, b) => a.at - b.at);
    const next = actions.shift()!;
    clock = Math.max(clock, next.at);
    await next.run();
  }
  clock = end;
  await seedConsoleData(app, call);
  await call('adminRunPayouts', { payday: latestPayday(end) }, { cookie: operatorCookie }).catch(() => {});
  await app.close();
  return {
    now: new Date(end),
    affiliates: DEMO_AFFILIATES.map((affiliate) => ({
      email: affiliate.email,
      password: DEMO_PASSWORD,
      name: `${affiliate.firstName} ${affiliate.lastName}`,
    })),
    operator: DEMO_OPERATOR,
  };
}

/** Support tickets and web-vitals measurements, so the operator's console has something to show. */
async function seedConsoleData(app: FastifyInstance, call: ReturnType<typeof callFunction>) {
  const tickets = [
    {
      name: 'Lucie Bernard',
      email: 'lucie@example.com',
      subject: 'subscription',
      message: 'Comment annuler mon abonnement avant le renouvellement ?',
    },
    {
      name: 'Tom Evans',
      email: 'tom@example.com',
      subject: 'technical',
      message: 'The scan stops at the forehead zone on my phone.',
    },
    {
      name: 'Nora Petit',
      email: 'nora@example.com',
      subject: 'account',
      message: 'Je souhaite supprimer mon compte et mes photos.',
    },
  ];
  for (const [index, ticket] of tickets.entries()) {
    await call(
      'submitContactForm',
      { ...ticket, language: ticket.subject === 'technical' ? 'en' : 'fr' },
      { ip: `203.0.113.${index + 1}` },
    );
  }
  const rand = random(7);
  const pages = ['/', '/support', '/download', '/affiliate', '/affiliate/dashboard'];
  for (const page of pages) {
    for (let batch = 0; batch < 8; batch += 1) {
      const metrics = (['LCP', 'FCP', 'TTFB', 'INP', 'CLS'] as const).map((name) => ({
        page,
        name,
        value:
          name === 'CLS'
            ? Number((rand() * 0.15).toFixed(3))
            : Math.round((name === 'LCP' ? 1800 : name === 'INP' ? 120 : 500) * (0.6 + rand())),
      }));
      await app.inject({
        method: 'POST',
        url: '/api/vitals',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(metrics),
        remoteAddress: `192.0.2.${batch + 1}`,
      });
    }
  }
}

/** The latest 15th at or before `at`, YYYY-MM-DD. */
function latestPayday(at: number): string {
  const date = new Date(at);
  const month = date.getUTCDate() >= 15 ? date.getUTCMonth() : date.getUTCMonth() - 1;
  return new Date(Date.UTC(date.getUTCFullYear(), month, 15)).toISOString().slice(0, 10);
}

function visitPayload(code: string, platform: 'ios' | 'android', visitor: string, at: number) {
  const userAgent =
    platform === 'ios'
      ? 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
      : 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
  return {
    fingerprint: {
      userAgent,
      language: 'fr-FR',
      timezone: 'Europe/Paris',
      screenResolution: platform === 'ios' ? '390x844' : '412x915',
      platform,
      colorDepth: 24,
      deviceMemory: null,
      hardwareConcurrency: null,
      sessionId: `demo-${visitor}`.slice(0, 64),
      timestamp: new Date(at).toISOString(),
      referrer: 'direct',
    },
    deeplink: { type: 'ref', code, fullPath: `/download?ref=${code}` },
    path: '/download',
    query: { ref: code },
  };
}

/** A documentation-range IPv4 address per visitor (never a real one). */
function fakeIp(visitor: string): string {
  let hash = 0;
  for (const char of visitor) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `198.51.${(hash >>> 8) % 256}.${hash % 256}`;
}

let eventCounter = 0;

function event(type: string, appUserId: string, at: number, fields: Record<string, unknown> = {}) {
  eventCounter += 1;
  return {
    api_version: '1.0',
    event: {
      id: `demo-event-${eventCounter}`,
      type,
      app_user_id: appUserId,
      original_app_user_id: appUserId,
      aliases: [appUserId],
      environment: 'PRODUCTION',
      store: appUserId.endsWith('0') ? 'PLAY_STORE' : 'APP_STORE',
      product_id: 'skanova_premium_monthly',
      period_type: 'NORMAL',
      price: 9.99,
      currency: 'USD',
      transaction_id: `demo-tx-${eventCounter}`,
      original_transaction_id: `demo-otx-${appUserId}`,
      purchased_at_ms: at,
      event_timestamp_ms: at,
      ...fields,
    },
  };
}

async function webhook(app: FastifyInstance, body: unknown): Promise<void> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/webhooks/revenuecat',
    headers: { authorization: DEMO_WEBHOOK_AUTH, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  if (response.statusCode !== 200) throw new Error(`demo webhook answered ${response.statusCode}: ${response.body}`);
}

function callFunction(app: FastifyInstance, origin: string) {
  return async (name: string, data: unknown, options: { cookie?: string; ip?: string; userAgent?: string } = {}) => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/fn/${name}`,
      headers: {
        'content-type': 'application/json',
        origin,
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
      },
      payload: JSON.stringify({ data }),
      ...(options.ip ? { remoteAddress: options.ip } : {}),
    });
    if (response.statusCode !== 200)
      throw new Error(`demo call ${name} answered ${response.statusCode}: ${response.body}`);
    const cookie = response.cookies.map((entry) => `${entry.name}=${entry.value}`).join('; ');
    return { result: (response.json() as { result: unknown }).result, cookie };
  };
}

async function signIn(app: FastifyInstance, origin: string, email: string, password: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { 'content-type': 'application/json', origin },
    payload: JSON.stringify({ email, password }),
  });
  if (response.statusCode !== 200) throw new Error(`demo sign-in answered ${response.statusCode}: ${response.body}`);
  return response.cookies.map((entry) => `${entry.name}=${entry.value}`).join('; ');
}
