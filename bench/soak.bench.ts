import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBenchServer, stopBenchServer, withBenchPostgres, withPgliteFolder } from './lib/bench-process.ts';
import { AGENTS, CLICK_FUNCTION_PATH, visitData } from './lib/click-workload.ts';
import { runAsScript } from './lib/run-as-script.ts';
import { SOAK_MEMORY_PATH, SOAK_PAYEES, SOAK_WEBHOOK_AUTH, type SoakReady } from './lib/soak-server.ts';

// The soak test (docs/product/rules-and-constants.md#quality-bar): a real server process (bench/lib/soak-server.ts: the
// product with its scheduled jobs) under steady mixed traffic for SOAK_MINUTES (default 10):
// landing visits, the app's first launches attributed to them, RevenueCat purchases of those
// installs, signups, sign-ins, dashboard openings (statistics, timeline, live visitors), and halfway
// through an operator's payout run for 2,000 affiliates owed money. The traffic is open-loop (a
// fixed rate per kind, whatever the answers' speed), each request from its own client address.
// Every 2 s the process's memory is read (GET /bench/memory: Node's process.memoryUsage()).
//
// Stable means, numerically (the first minute is the warm-up, so the second is the reference):
// - latency: the last minute's p99 is at most 1.5 × the second minute's, or at most 5 ms above it —
//   of all requests, and of the visits and of the dashboard calls (the kinds with thousands of
//   requests a minute; the others' p99 per minute is shown, not judged);
// - heap: the floor of the used heap (its lowest reading in a minute, i.e. after the collections)
//   grows by at most 1 MB per minute (least-squares slope from the second minute to the last) and
//   ends within 20 MB of the second minute's;
// - resident memory: grows by at most 2 MB per minute over the second half of the run (the
//   embedded database's WebAssembly memory grows with its working set and is never handed back, so
//   the first half is not judged).
//
// Run alone: node --import tsx bench/soak.bench.ts
//   SOAK_MINUTES=<minutes, default 10>, SOAK_RATE=<multiplier of the rates below, default 1>,
//   BENCH_DATABASES=pglite|postgres (default both, one after the other)

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const RATE = Number(process.env.SOAK_RATE ?? 1);
const SERVER_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib', 'soak-server.ts');
const MEMORY_SAMPLE_MS = 2_000;
const TICK_MS = 20;
/** Requests allowed in flight; beyond, the generator skips (and counts) what falls due. */
const MAX_IN_FLIGHT = 1_000;
const INITIAL_AFFILIATES = 20;

/** Per second, at SOAK_RATE=1. A dashboard opening is three calls. */
const RATES = {
  visit: 80,
  install: 4,
  webhook: 4,
  dashboard: 4,
  signup: 0.5,
  signin: 1,
} as const;

type Kind = keyof typeof RATES | 'payout';
/** Kinds whose p99 is judged (the others are too few per minute for a p99 to mean much). */
const JUDGED_KINDS = ['visit', 'dashboard'] as const;
/** Kinds shown with their own p99 per minute; sign-ups and sign-ins together (a password hash each). */
const SHOWN_KINDS = ['visit', 'dashboard', 'webhook', 'install', 'account'] as const;
type ShownKind = (typeof SHOWN_KINDS)[number];
const shownKind = (kind: Kind): ShownKind | null =>
  kind === 'signup' || kind === 'signin' ? 'account' : kind === 'payout' ? null : kind;

interface Sample {
  kind: Kind;
  /** Seconds since the soak started, when the request was sent. */
  at: number;
  ms: number;
  ok: boolean;
  status: number;
}

interface MemoryReading {
  at: number;
  rss: number;
  heapUsed: number;
  /** The machine's load average over the last minute (other work on the machine). */
  load: number;
}

interface Affiliate {
  email: string;
  password: string;
  cookie: string;
  code: string;
}

interface Minute {
  minute: number;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  p99ByKind: Record<ShownKind, number>;
  rssMax: number;
  heapFloor: number;
  heapMax: number;
  /** The machine's highest 1-minute load average in the minute. */
  load: number;
}

interface SoakResult {
  database: string;
  minutes: Minute[];
  skipped: number;
  errorsByStatus: Record<string, number>;
  payout: { minute: number; ms: number; created: number | null; status: number } | null;
  verdict: Verdict;
}

interface LatencyVerdict {
  /** All requests, or one kind. */
  of: string;
  second: number;
  last: number;
  stable: boolean;
}

interface Verdict {
  latency: LatencyVerdict[] | null;
  heap: { slopeMbPerMinute: number; changeMb: number; stable: boolean } | null;
  rss: { slopeMbPerMinute: number; stable: boolean } | null;
}

const MB = 1024 * 1024;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** Least-squares slope of `values` over their index (per step). */
function slope(values: number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  values.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return num / den;
}

let clientSequence = 0;
/** A client address of its own for each request (the server trusts X-Forwarded-For here). */
function nextClient(): string {
  clientSequence += 1;
  return `10.${(clientSequence >> 16) & 255}.${(clientSequence >> 8) & 255}.${clientSequence & 255}`;
}

class Soak {
  readonly samples: Sample[] = [];
  readonly memory: MemoryReading[] = [];
  readonly affiliates: Affiliate[] = [];
  readonly trackingIds: string[] = [];
  readonly attributed: string[] = [];
  readonly errorsByStatus: Record<string, number> = {};
  payout: SoakResult['payout'] = null;
  skipped = 0;
  inFlight = 0;
  started = 0;
  sequence = 0;
  readonly runId = randomBytes(4).toString('hex');

  constructor(
    readonly base: string,
    readonly ready: SoakReady,
  ) {}

  /** One request; recorded under `kind` when the soak is running (setup requests are not). */
  async request(
    kind: Kind | null,
    pathname: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: any; setCookie: string[] }> {
    const sent = performance.now();
    let status = 0;
    try {
      const response = await fetch(`${this.base}${pathname}`, {
        method: 'POST',
        // An empty value leaves the header out (the webhook's sender is no browser: no Origin).
        headers: Object.fromEntries(
          Object.entries({
            'content-type': 'application/json',
            origin: this.ready.publicUrl,
            'x-forwarded-for': nextClient(),
            ...headers,
          }).filter(([, value]) => value !== ''),
        ),
        body: JSON.stringify(body),
      });
      status = response.status;
      const text = await response.text();
      return { status, json: text ? JSON.parse(text) : null, setCookie: response.headers.getSetCookie() };
    } finally {
      if (kind) {
        const ok = status >= 200 && status < 300;
        this.samples.push({ kind, at: (sent - this.started) / 1000, ms: performance.now() - sent, ok, status });
        const key = `${kind} ${status || 'network'}`;
        if (!ok) this.errorsByStatus[key] = (this.errorsByStatus[key] ?? 0) + 1;
      }
    }
  }

  callFn(kind: Kind | null, name: string, data: unknown, cookie?: string) {
    return this.request(kind, `/api/fn/${name}`, { data }, cookie ? { cookie } : {});
  }

  /** Signs up a new affiliate and gives them a referral code. */
  async signup(kind: Kind | null): Promise<void> {
    this.sequence += 1;
    const email = `soak-${this.runId}-${this.sequence}@example.com`;
    const password = 'soak affiliate password';
    const created = await this.callFn(kind, 'createAffiliate', {
      email,
      password,
      firstName: 'Soak',
      lastName: `Affiliate ${this.sequence}`,
      phone: '',
      companyName: '',
      website: '',
      paymentMethod: 'later',
      paymentDetails: null,
      termsAccepted: true,
      language: this.sequence % 2 === 0 ? 'fr' : 'en',
    });
    if (created.status !== 200) return;
    const cookie = created.setCookie.map((line) => line.split(';', 1)[0]).join('; ');
    const code = await this.callFn(kind, 'generateReferralCode', { description: 'soak' }, cookie);
    if (code.status === 200) this.affiliates.push({ email, password, cookie, code: code.json.result.code });
  }

  async signin(): Promise<void> {
    const affiliate = this.pick(this.affiliates);
    if (!affiliate) return;
    const response = await this.request('signin', '/api/auth/sign-in/email', {
      email: affiliate.email,
      password: affiliate.password,
    });
    if (response.status === 200) {
      affiliate.cookie = response.setCookie.map((line) => line.split(';', 1)[0]).join('; ');
    }
  }

  async visit(): Promise<void> {
    this.sequence += 1;
    const platform = this.sequence % 2 === 0 ? 'ios' : 'android';
    const code = this.pick(this.affiliates)?.code ?? 'NOCODE';
    const response = await this.request(
      'visit',
      CLICK_FUNCTION_PATH,
      {
        data: visitData({
          sessionId: `${this.runId}-visitor-${String(this.sequence).padStart(10, '0')}`,
          platform,
          code,
          query: { utm_source: 'instagram' },
        }),
      },
      { 'user-agent': AGENTS[platform] },
    );
    if (response.status === 200) {
      this.trackingIds.push(response.json.result.trackingId);
      if (this.trackingIds.length > 1000) this.trackingIds.splice(0, 500);
    }
  }

  /** The app's first launch after a visit: attributed by the visit's tracking id. */
  async install(): Promise<void> {
    const trackingId = this.trackingIds.pop();
    if (!trackingId) return;
    this.sequence += 1;
    const appUserId = `$RCAnonymousID:soak-${this.runId}-${this.sequence}`;
    const response = await this.callFn('install', 'attributeInstall', {
      appUserId,
      platform: this.sequence % 2 === 0 ? 'ios' : 'android',
      trackingId,
    });
    if (response.status === 200 && response.json.result.attributed) this.attributed.push(appUserId);
  }

  /** A RevenueCat purchase: of an attributed install when there is one, else of a stranger. */
  async webhook(): Promise<void> {
    this.sequence += 1;
    const appUserId = this.attributed.shift() ?? `$RCAnonymousID:stranger-${this.runId}-${this.sequence}`;
    const now = Date.now();
    const transaction = `${this.runId}${String(this.sequence).padStart(12, '0')}`;
    await this.request(
      'webhook',
      '/api/webhooks/revenuecat',
      {
        api_version: '1.0',
        event: {
          id: `${this.runId}-${this.sequence}`,
          type: 'INITIAL_PURCHASE',
          app_id: 'app1234567890',
          app_user_id: appUserId,
          original_app_user_id: appUserId,
          aliases: [appUserId],
          period_type: 'NORMAL',
          purchased_at_ms: now,
          expiration_at_ms: now + 30 * 86_400_000,
          event_timestamp_ms: now,
          environment: 'PRODUCTION',
          entitlement_ids: ['premium'],
          product_id: 'skanova_monthly',
          price: 9.99,
          price_in_purchased_currency: 9.99,
          currency: 'USD',
          country_code: 'FR',
          store: 'APP_STORE',
          takehome_percentage: 0.85,
          transaction_id: transaction,
          original_transaction_id: transaction,
          is_trial_conversion: false,
        },
      },
      { authorization: SOAK_WEBHOOK_AUTH, origin: '' },
    );
  }

  /** A dashboard opening: its three calls at once, as the page makes them. */
  async dashboard(): Promise<void> {
    const affiliate = this.pick(this.affiliates);
    if (!affiliate) return;
    await Promise.all(
      ['getAffiliateStats', 'getAffiliateTimeline', 'getActiveVisitors'].map((name) =>
        this.callFn('dashboard', name, null, affiliate.cookie),
      ),
    );
  }

  /** The operator signs in and runs the payday's payouts. */
  async payoutRun(): Promise<void> {
    const signIn = await this.request(null, '/api/auth/sign-in/email', {
      email: this.ready.operator.email,
      password: this.ready.operator.password,
    });
    const cookie = signIn.setCookie.map((line) => line.split(';', 1)[0]).join('; ');
    const sent = performance.now();
    const response = await this.callFn('payout', 'adminRunPayouts', { payday: this.ready.payday }, cookie);
    this.payout = {
      minute: Math.floor((sent - this.started) / 60_000) + 1,
      ms: Math.round(performance.now() - sent),
      created: response.json?.result?.created ?? null,
      status: response.status,
    };
  }

  pick<T>(list: T[]): T | undefined {
    return list[Math.floor(Math.random() * list.length)];
  }

  launch(work: () => Promise<void>) {
    if (this.inFlight >= MAX_IN_FLIGHT) {
      this.skipped += 1;
      return;
    }
    this.inFlight += 1;
    work()
      .catch(() => {})
      .finally(() => {
        this.inFlight -= 1;
      });
  }

  async readMemory(): Promise<void> {
    try {
      const response = await fetch(`${this.base}${SOAK_MEMORY_PATH}`);
      const usage = (await response.json()) as { rss: number; heapUsed: number };
      this.memory.push({
        at: (performance.now() - this.started) / 1000,
        rss: usage.rss,
        heapUsed: usage.heapUsed,
        load: loadavg()[0] ?? Number.NaN,
      });
    } catch {
      // A reading missed under load: the next one comes 2 s later.
    }
  }

  async run(minutes: number): Promise<void> {
    for (let i = 0; i < INITIAL_AFFILIATES; i++) await this.signup(null);
    this.started = performance.now();
    const credit: Record<keyof typeof RATES, number> = {
      visit: 0,
      install: 0,
      webhook: 0,
      dashboard: 0,
      signup: 0,
      signin: 0,
    };
    const work: Record<keyof typeof RATES, () => Promise<void>> = {
      visit: () => this.visit(),
      install: () => this.install(),
      webhook: () => this.webhook(),
      dashboard: () => this.dashboard(),
      signup: () => this.signup('signup'),
      signin: () => this.signin(),
    };
    const endAt = this.started + minutes * 60_000;
    const payoutAt = this.started + (minutes * 60_000) / 2;
    let payoutStarted = false;
    let last = this.started;
    const memoryTimer = setInterval(() => void this.readMemory(), MEMORY_SAMPLE_MS);
    try {
      while (performance.now() < endAt) {
        await new Promise((resolve) => setTimeout(resolve, TICK_MS));
        const now = performance.now();
        const seconds = (now - last) / 1000;
        last = now;
        for (const kind of Object.keys(RATES) as (keyof typeof RATES)[]) {
          credit[kind] += RATES[kind] * RATE * seconds;
          while (credit[kind] >= 1) {
            credit[kind] -= 1;
            this.launch(work[kind]);
          }
        }
        if (!payoutStarted && now >= payoutAt) {
          payoutStarted = true;
          this.launch(() => this.payoutRun());
        }
      }
      while (this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      clearInterval(memoryTimer);
    }
  }

  minutes(count: number): Minute[] {
    const result: Minute[] = [];
    for (let minute = 1; minute <= count; minute++) {
      const inMinute = (at: number) => at >= (minute - 1) * 60 && at < minute * 60;
      const samples = this.samples.filter((sample) => inMinute(sample.at) && sample.kind !== 'payout');
      const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
      const p99ByKind = Object.fromEntries(
        SHOWN_KINDS.map((kind) => [
          kind,
          percentile(
            samples
              .filter((sample) => shownKind(sample.kind) === kind)
              .map((sample) => sample.ms)
              .sort((a, b) => a - b),
            99,
          ),
        ]),
      ) as Record<ShownKind, number>;
      const memory = this.memory.filter((reading) => inMinute(reading.at));
      result.push({
        minute,
        requests: samples.length,
        errors: samples.filter((sample) => !sample.ok).length,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        p99ByKind,
        rssMax: Math.max(...memory.map((reading) => reading.rss)) / MB,
        heapFloor: Math.min(...memory.map((reading) => reading.heapUsed)) / MB,
        heapMax: Math.max(...memory.map((reading) => reading.heapUsed)) / MB,
        load: Math.max(...memory.map((reading) => reading.load)),
      });
    }
    return result;
  }
}

function judge(minutes: Minute[]): Verdict {
  if (minutes.length < 3) return { latency: null, heap: null, rss: null };
  const second = minutes[1] as Minute;
  const last = minutes.at(-1) as Minute;
  const judged = minutes.slice(1);
  const heapSlope = slope(judged.map((minute) => minute.heapFloor));
  const changeMb = last.heapFloor - second.heapFloor;
  const secondHalf = minutes.slice(Math.floor(minutes.length / 2));
  const rssSlope = slope(secondHalf.map((minute) => minute.rssMax));
  const latency = (of: string, secondP99: number, lastP99: number): LatencyVerdict => ({
    of,
    second: secondP99,
    last: lastP99,
    stable: lastP99 <= Math.max(1.5 * secondP99, secondP99 + 5),
  });
  return {
    latency: [
      latency('all requests', second.p99, last.p99),
      ...JUDGED_KINDS.map((kind) => latency(`${kind}s`, second.p99ByKind[kind], last.p99ByKind[kind])),
    ],
    heap: { slopeMbPerMinute: heapSlope, changeMb, stable: heapSlope <= 1 && changeMb <= 20 },
    rss: { slopeMbPerMinute: rssSlope, stable: rssSlope <= 2 },
  };
}

async function soak(database: string, env: Record<string, string>): Promise<SoakResult> {
  const { port, child, ready } = await startBenchServer<SoakReady>(SERVER_ENTRY, env);
  try {
    const run = new Soak(`http://127.0.0.1:${port}`, ready);
    await run.run(MINUTES);
    const minutes = run.minutes(MINUTES);
    return {
      database,
      minutes,
      skipped: run.skipped,
      errorsByStatus: run.errorsByStatus,
      payout: run.payout,
      verdict: judge(minutes),
    };
  } finally {
    await stopBenchServer(child);
  }
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

function report(results: SoakResult[]): string {
  const perSecond = Object.entries(RATES)
    .map(([kind, rate]) => `${kind} ${rate * RATE}/s`)
    .join(', ');
  const lines = [
    `${MINUTES} minutes of open-loop traffic per database (${perSecond}; a dashboard opening is 3 calls, a signup 2), a payout run for ${SOAK_PAYEES.toLocaleString('en-US')} affiliates halfway; memory read every ${MEMORY_SAMPLE_MS / 1000} s; Node ${process.version}.`,
  ];
  for (const result of results) {
    lines.push(
      '',
      `**${result.database}**`,
      '',
      '| Minute | Requests | Errors | p50 (ms) | p99 (ms) | p99 visits | p99 dashboard | p99 webhooks | p99 installs | p99 sign-ups and sign-ins | RSS max (MB) | Heap floor (MB) | Heap max (MB) | Machine load |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const m of result.minutes) {
      lines.push(
        `| ${m.minute}${result.payout?.minute === m.minute ? ' (payout run)' : ''} | ${m.requests.toLocaleString('en-US')} | ${m.errors} | ${fixed(m.p50)} | ${fixed(m.p99)} | ${SHOWN_KINDS.map((kind) => fixed(m.p99ByKind[kind])).join(' | ')} | ${fixed(m.rssMax, 0)} | ${fixed(m.heapFloor)} | ${fixed(m.heapMax)} | ${fixed(m.load)} |`,
      );
    }
    const { latency, heap, rss } = result.verdict;
    const payout = result.payout;
    lines.push(
      '',
      payout
        ? `Payout run: answered ${payout.status} in ${payout.ms.toLocaleString('en-US')} ms, ${payout.created ?? 'no'} payouts created (minute ${payout.minute}).`
        : 'Payout run: not started.',
      `Requests skipped (more than ${MAX_IN_FLIGHT} in flight): ${result.skipped}. Errors by kind and status: ${JSON.stringify(result.errorsByStatus)}.`,
      latency
        ? `Latency (p99 in minute 2 → the last minute; bound: 1.5× or +5 ms): ${latency
            .map((l) => `${l.of} ${fixed(l.second)} → ${fixed(l.last)} ms, ${l.stable ? 'stable' : 'NOT stable'}`)
            .join('; ')}.`
        : 'Latency: run too short to judge (3 minutes at least).',
      heap
        ? `Heap floor: ${fixed(heap.slopeMbPerMinute, 2)} MB/min from minute 2, ${heap.changeMb >= 0 ? '+' : ''}${fixed(heap.changeMb)} MB by the last minute — ${heap.stable ? 'stable' : 'NOT stable'} (bound: 1 MB/min and 20 MB).`
        : 'Heap: run too short to judge.',
      rss
        ? `Resident memory: ${fixed(rss.slopeMbPerMinute, 2)} MB/min over the second half — ${rss.stable ? 'stable' : 'NOT stable'} (bound: 2 MB/min).`
        : 'Resident memory: run too short to judge.',
    );
  }
  return lines.join('\n');
}

/** Soaks each database (BENCH_DATABASES=pglite or postgres for one) and answers the markdown figures. */
export default async function run(): Promise<string> {
  const databases = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
  const results: SoakResult[] = [];
  if (databases.includes('pglite')) {
    results.push(
      await withPgliteFolder('skanova-bench-soak-', (dir) =>
        soak('PGlite (data folder)', { DATA_DIR: dir, DATABASE_URL: '' }),
      ),
    );
  }
  if (databases.includes('postgres')) {
    results.push(
      await withPgliteFolder('skanova-bench-soak-', (dir) =>
        withBenchPostgres((url) => soak('PostgreSQL (fsync on)', { DATA_DIR: dir, DATABASE_URL: url })),
      ),
    );
  }
  return report(results);
}

runAsScript(import.meta.url, run);
