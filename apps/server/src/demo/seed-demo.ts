import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/client.ts';

// The demo programme (`npm run demo`): six months of a living affiliate programme, played through
// the product's own entry points — signup, code generation, landing-page visits, the app's install
// attribution, RevenueCat webhooks, the commission and payout jobs and the operator's payout
// functions — on a clock that the seed moves forward. Nothing is written behind the product's back,
// so every figure on the dashboards follows from the same rules as in production.

export const DEMO_PASSWORD = 'demo-password-1';
export const DEMO_OPERATOR = { email: 'operator@demo.skanova.test', password: 'operator-password-1' };
export const DEMO_WEBHOOK_AUTH = 'Bearer demo-revenuecat-webhook-secret';

interface DemoAffiliate {
  email: string;
  firstName: string;
  lastName: string;
  language: 'fr' | 'en';
  payment: { paymentMethod: 'paypal' | 'bank_transfer' | 'later'; paymentDetails?: Record<string, string> };
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

  for (const affiliate of DEMO_AFFILIATES) {
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
    for (let month = 0; month < MONTHS; month += 1) {
      // More visits as the affiliate's audience grows.
      const visits = Math.round(affiliate.visitsPerMonth * (0.5 + month / MONTHS));
      for (let index = 0; index < visits; index += 1) {
        const code = codes[Math.floor(rand() * codes.length)]!;
        const at = clock + month * 30 * DAY_MS + Math.floor(rand() * 30 * DAY_MS);
        if (at >= end) continue;
        const subscribes = rand() < affiliate.conversionRate;
        const platform = rand() < 0.55 ? 'ios' : 'android';
        const refunded = subscribes && rand() < 0.05;
        const trial = subscribes && rand() < 0.3;
        const visitor = `${affiliate.email}-${month}-${index}`;
        actions.push({
          at,
          run: async () => {
            const visit = visitPayload(code, platform, visitor, at);
            const { result } = await call('storePreInstallData', visit, {
              ip: fakeIp(visitor),
              userAgent: visit.fingerprint.userAgent,
            });
            if (!subscribes) return;
            appUsers += 1;
            const appUserId = `$RCAnonymousID:demo${appUsers.toString().padStart(5, '0')}`;
            const trackingId = (result as { trackingId: string }).trackingId;
            const installAt = at + 10 * 60_000;
            actions.push({
              at: installAt,
              run: () =>
                call('attributeInstall', { appUserId, platform, trackingId }, { ip: fakeIp(visitor) }).then(() => {}),
            });
            const purchaseAt = installAt + (trial ? 3 : 0) * DAY_MS + 3_600_000;
            if (trial) {
              actions.push({
                at: installAt + 60_000,
                run: () =>
                  webhook(
                    app,
                    event('INITIAL_PURCHASE', appUserId, installAt + 60_000, { period_type: 'TRIAL', price: 0 }),
                  ),
              });
              actions.push({
                at: purchaseAt,
                run: () => webhook(app, event('RENEWAL', appUserId, purchaseAt, { is_trial_conversion: true })),
              });
            } else {
              actions.push({
                at: purchaseAt,
                run: () => webhook(app, event('INITIAL_PURCHASE', appUserId, purchaseAt)),
              });
            }
            if (refunded) {
              const refundAt = purchaseAt + 10 * DAY_MS;
              actions.push({
                at: refundAt,
                run: () =>
                  webhook(app, event('CANCELLATION', appUserId, refundAt, { cancel_reason: 'CUSTOMER_SUPPORT' })),
              });
            }
          },
        });
      }
    }
  }

  // Each past payday: the operator runs the payouts; earlier months are exported, sent and paid.
  for (let month = 1; month <= MONTHS; month += 1) {
    const start = new Date(clock);
    const payday = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + month, 15);
    if (payday + 3 * DAY_MS >= end) continue;
    const paydayText = new Date(payday).toISOString().slice(0, 10);
    actions.push({
      at: payday + 9 * 3_600_000,
      run: async () => {
        await call('adminRunPayouts', { payday: paydayText }, { cookie: operatorCookie });
      },
    });
    actions.push({
      at: payday + 2 * DAY_MS,
      run: async () => {
        const { result } = await call(
          'adminListPayouts',
          { payday: paydayText, status: 'scheduled' },
          { cookie: operatorCookie },
        );
        const payouts = (result as { payouts: { id: string; method: string }[] }).payouts;
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
        await call('adminMarkPayouts', { payoutIds, status: 'paid' }, { cookie: operatorCookie });
      },
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
