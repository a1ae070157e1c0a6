import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// One vocabulary (ADR 024): a product area bears the same name in packages/shared, on the server and in
// the web app. A feature folder on one side of the wire has its namesake on the other, or is listed
// below as one-sided with its reason; every module of packages/shared is a feature's name or listed as
// the platform's plumbing. A list entry that no longer holds (its folder gone, or a namesake appeared)
// fails too, so the lists say what is true today. The server's callables are named after their file.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER_FEATURES = 'apps/server/src/features';
const WEB_FEATURES = 'apps/web/app/features';
const SHARED = 'packages/shared/src';
const FUNCTIONS = 'apps/server/src/functions';

/** Features with no namesake on the other side of the wire, each with its reason. */
const ONE_SIDED: { server: Record<string, string>; web: Record<string, string> } = {
  server: {
    attribution:
      "the mobile app's install attribution (attributeInstall) and RevenueCat's webhook: no page of the web app calls it",
    payouts: "the operators' payout runs and exports: their screens are tabs of the web app's admin console",
    webhooks:
      "the operators' outgoing webhook endpoints and delivery log: their screens are a tab of the web app's admin console",
    rewards:
      "partner groups, versioned reward rules and campaign rates: the operators' screens are the admin console's Groups tab and affiliate detail, the affiliate's own rule shows in the web app's affiliate dashboard and terms page (the words are composed in lib/reward-words.ts)",
  },
  web: {
    consent: 'the consent banner: the answer stays in a browser cookie and nothing is sent to the server',
    studio:
      'the skin-analysis web app runs on the device: the server only serves its files (http/studio-offline.ts), no callable',
    vitals:
      'the web-vitals reporter posts to /api/vitals, an HTTP route of the server (http/vitals.ts), not a feature; the console reads them through admin',
  },
};

/** Modules of packages/shared that are no feature: the platform's plumbing, each with its reason. */
const SHARED_PLUMBING: Record<string, string> = {
  callable: 'the callable protocol: error codes, the composed contract, inputs several domains share',
  i18n: 'the translations of every page and e-mail',
  site: "the site as a whole: its pages, languages, cookies' names and timings, used by every feature",
};

/** The folders directly inside `folder` (relative to the repository root), sorted. */
function folders(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

interface Sides {
  server: string[];
  web: string[];
  shared: string[];
}

/** What breaks the vocabulary, one sentence each; none when every name has its namesake or its reason. */
function vocabularyProblems(sides: Sides, oneSided = ONE_SIDED, plumbing = SHARED_PLUMBING): string[] {
  const problems: string[] = [];
  const other = { server: 'web', web: 'server' } as const;
  for (const side of ['server', 'web'] as const) {
    const across = new Set(sides[other[side]]);
    for (const feature of sides[side]) {
      if (!across.has(feature) && !(feature in oneSided[side])) {
        problems.push(
          `${side} feature "${feature}" has no namesake in the ${other[side]} features and is not listed as one-sided`,
        );
      }
    }
    for (const listed of Object.keys(oneSided[side])) {
      if (!sides[side].includes(listed)) problems.push(`one-sided ${side} feature "${listed}" has no folder`);
      else if (across.has(listed)) {
        problems.push(`one-sided ${side} feature "${listed}" now has a namesake in the ${other[side]} features`);
      }
    }
  }
  const features = new Set([...sides.server, ...sides.web]);
  for (const module of sides.shared) {
    if (!features.has(module) && !(module in plumbing)) {
      problems.push(`shared module "${module}" is no feature's name and is not listed as plumbing`);
    }
  }
  for (const listed of Object.keys(plumbing)) {
    if (!sides.shared.includes(listed)) problems.push(`shared plumbing "${listed}" has no folder`);
    else if (features.has(listed)) problems.push(`shared plumbing "${listed}" is a feature's name`);
  }
  return problems;
}

const sides: Sides = { server: folders(SERVER_FEATURES), web: folders(WEB_FEATURES), shared: folders(SHARED) };

describe('one vocabulary on both sides of the wire (ADR 024)', () => {
  it('reads the feature folders and the shared modules', () => {
    expect(sides.server).toContain('affiliate');
    expect(sides.web).toContain('affiliate');
    expect(sides.shared).toContain('affiliate');
  });

  it('gives every feature its namesake or a reason, and every shared module a feature or a reason', () => {
    expect(vocabularyProblems(sides)).toEqual([]);
  });

  it('lists each one-sided feature and each piece of plumbing with its reason', () => {
    for (const reason of [...Object.values(ONE_SIDED.server), ...Object.values(ONE_SIDED.web)]) {
      expect(reason.length).toBeGreaterThan(20);
    }
    for (const reason of Object.values(SHARED_PLUMBING)) expect(reason.length).toBeGreaterThan(20);
  });

  describe('fails on a planted folder', () => {
    it('a server feature without a web namesake', () => {
      expect(vocabularyProblems({ ...sides, server: [...sides.server, 'clicks'] })).toEqual([
        'server feature "clicks" has no namesake in the web features and is not listed as one-sided',
      ]);
    });

    it('a web feature without a server namesake', () => {
      expect(vocabularyProblems({ ...sides, web: [...sides.web, 'dashboard'] })).toEqual([
        'web feature "dashboard" has no namesake in the server features and is not listed as one-sided',
      ]);
    });

    it('a shared module that is no feature', () => {
      expect(vocabularyProblems({ ...sides, shared: [...sides.shared, 'stats'] })).toEqual([
        'shared module "stats" is no feature\'s name and is not listed as plumbing',
      ]);
    });

    it('a stale one-sided entry: its folder gone, or a namesake that appeared', () => {
      expect(vocabularyProblems({ ...sides, web: sides.web.filter((feature) => feature !== 'vitals') })).toEqual([
        'one-sided web feature "vitals" has no folder',
      ]);
      expect(vocabularyProblems({ ...sides, web: [...sides.web, 'payouts'] })).toEqual([
        'one-sided server feature "payouts" now has a namesake in the web features',
      ]);
    });

    it('stale plumbing: its folder gone, or a feature of that name', () => {
      expect(vocabularyProblems({ ...sides, shared: sides.shared.filter((module) => module !== 'site') })).toEqual([
        'shared plumbing "site" has no folder',
      ]);
      expect(
        vocabularyProblems({ server: [...sides.server, 'i18n'], web: [...sides.web, 'i18n'], shared: sides.shared }),
      ).toEqual(['shared plumbing "i18n" is a feature\'s name']);
    });
  });
});

describe("the server's callables", () => {
  const files = readdirSync(path.join(ROOT, FUNCTIONS), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && path.basename(file) !== 'index.ts')
    .sort();

  it('are each served by a file named after the callable, in kebab case', () => {
    expect(files.length).toBeGreaterThan(20);
    const misnamed = files.flatMap((file) => {
      const text = readFileSync(path.join(ROOT, FUNCTIONS, file), 'utf8');
      const names = [...text.matchAll(/defineCallable\(\{\s*name: '(\w+)'/g)].map((match) => match[1]!);
      const kebab = names.map((name) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`));
      return names.length === 1 && kebab[0] === path.basename(file, '.ts') ? [] : [`${file}: ${names.join(', ')}`];
    });
    expect(misnamed).toEqual([]);
  });

  it("are grouped only in folders named after a server feature (the console's, attribution's, payouts')", () => {
    const groups = [...new Set(files.map((file) => path.dirname(file)).filter((folder) => folder !== '.'))];
    expect(groups.filter((group) => !sides.server.includes(group))).toEqual([]);
  });
});
