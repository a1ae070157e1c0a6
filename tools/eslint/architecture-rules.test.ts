import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The layers of ADR 008 and the holes ADR 020 closed, checked against the repository's own ESLint
// configuration. Each case plants a file that does not exist — its text is linted as if it were at
// that path — so nothing is written into the tree and the normal lint run never sees the plants.
// The features a plant names are read from the disk, as the configuration reads them: a renamed
// feature keeps the test meaningful.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = path.join(ROOT, 'apps/server/src');
const WEB = path.join(ROOT, 'apps/web/app');

/** A source file of a feature (not a test), as `<feature>/<file>` without its extension. */
function featureModules(featuresDir: string): { feature: string; module: string }[] {
  return readdirSync(featuresDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .flatMap((feature) => {
      const file = readdirSync(path.join(featuresDir, feature))
        .sort()
        .find((name) => /^[^.]+\.tsx?$/.test(name));
      return file ? [{ feature, module: `${feature}/${file.replace(/\.tsx?$/, '')}` }] : [];
    });
}

const serverFeatures = featureModules(path.join(SERVER, 'features'));
const webFeatures = featureModules(path.join(WEB, 'features'));

let eslint: ESLint;
beforeAll(() => {
  // The configuration's paths are relative to the repository root, where `npm run lint` runs.
  process.chdir(ROOT);
  eslint = new ESLint({ cwd: ROOT });
});

/** The architecture rules' messages for `code` linted as the file `file` (from the repository root). */
async function plant(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter(
    (message) =>
      message.fatal ||
      message.ruleId === 'import-x/no-restricted-paths' ||
      message.ruleId === 'local/no-restricted-import-type-paths',
  );
}

describe('the lint refuses each planted hole (ADR 020)', { timeout: 60_000 }, () => {
  it('has two features on each side to plant between', () => {
    expect(serverFeatures.length).toBeGreaterThanOrEqual(2);
    expect(webFeatures.length).toBeGreaterThanOrEqual(2);
  });

  describe("1. a feature naming another feature's types with typeof import()", () => {
    it('in the web app', async () => {
      const [own, other] = webFeatures;
      const messages = await plant(
        `apps/web/app/features/${own!.feature}/planted.ts`,
        `export type Other = typeof import('../${other!.module}');\n`,
      );
      expect(messages.map((message) => message.ruleId)).toEqual(['local/no-restricted-import-type-paths']);
      expect(messages[0]!.message).toContain('A feature never imports another feature');
    });

    it('on the server', async () => {
      const [own, other] = serverFeatures;
      const messages = await plant(
        `apps/server/src/features/${own!.feature}/planted.ts`,
        `export type Other = typeof import('../${other!.module}.ts');\n`,
      );
      expect(messages.map((message) => message.ruleId)).toEqual(['local/no-restricted-import-type-paths']);
    });

    it('with a qualified name, import("…").Name', async () => {
      const [own, other] = webFeatures;
      const messages = await plant(
        `apps/web/app/features/${own!.feature}/planted.ts`,
        `export type Other = import('../${other!.module}').Anything;\n`,
      );
      expect(messages.map((message) => message.ruleId)).toEqual(['local/no-restricted-import-type-paths']);
    });

    it('still lets a feature name its own modules and packages that way', async () => {
      const [own] = webFeatures;
      const messages = await plant(
        `apps/web/app/features/${own!.feature}/planted.ts`,
        `export type Own = typeof import('../${own!.module}');\nexport type Qr = typeof import('qrcode');\n`,
      );
      expect(messages).toEqual([]);
    });
  });

  describe('2. a feature importing root.tsx or routes.ts', () => {
    for (const [entry, code] of [
      ['root.tsx', "import { Layout } from '../../root';\nexport const shell = Layout;\n"],
      [
        'root.tsx (types only)',
        "import type { Route } from '../../+types/root';\nimport type * as Root from '../../root';\nexport type R = Route.MetaArgs | typeof Root;\n",
      ],
      ['routes.ts', "import routes from '../../routes';\nexport const all = routes;\n"],
      ['entry.client.tsx', "import '../../entry.client';\n"],
    ] as const) {
      it(entry, async () => {
        const [own] = webFeatures;
        const messages = await plant(`apps/web/app/features/${own!.feature}/planted.ts`, code);
        expect(messages.length).toBeGreaterThan(0);
        expect(messages.every((message) => message.message.includes('Nothing imports the entry points'))).toBe(true);
      });
    }
  });

  describe("3. a new file at the server's src/ root importing a feature", () => {
    it('is refused, as plumbing would be', async () => {
      const [feature] = serverFeatures;
      const messages = await plant(
        'apps/server/src/planted-helper.ts',
        `export { default as anything } from './features/${feature!.module}.ts';\nimport * as f from './features/${feature!.module}.ts';\nexport const x = f;\n`,
      );
      expect(messages.map((message) => message.ruleId)).toEqual([
        'import-x/no-restricted-paths',
        'import-x/no-restricted-paths',
      ]);
      expect(messages[0]!.message).toContain('A file at the root of apps/server/src');
    });

    it('is refused for jobs, entry points and context.ts too', async () => {
      const messages = await plant(
        'apps/server/src/planted-helper.ts',
        "import { serve } from './process/serve.ts';\nimport type { AppContext } from './context.ts';\nexport type C = AppContext;\nexport const s = serve;\n",
      );
      expect(messages).toHaveLength(2);
    });

    it('may import the plumbing, as services.ts does', async () => {
      const messages = await plant(
        'apps/server/src/planted-helper.ts',
        "import type { Config } from './config.ts';\nimport type { AppServices } from './services.ts';\nexport type S = [Config, AppServices];\n",
      );
      expect(messages).toEqual([]);
    });

    it('leaves the entry points at the root (app.ts, main.ts) and context.ts their imports', async () => {
      const [feature] = serverFeatures;
      for (const file of ['app.ts', 'main.ts', 'context.ts']) {
        const messages = await plant(
          `apps/server/src/${file}`,
          `import type * as F from './features/${feature!.module}.ts';\nexport type X = typeof F;\n`,
        );
        expect(messages).toEqual([]);
      }
    });
  });

  describe('4. a shared component reaching features through root.tsx', () => {
    it('a component importing root.tsx is refused (the chain affiliate-layout → root → consent, vitals)', async () => {
      const messages = await plant(
        'apps/web/app/components/planted-layout.tsx',
        "import type { Route } from '../+types/root';\nimport { Layout } from '../root';\nexport const L = Layout;\nexport type M = Route.MetaArgs;\n",
      );
      expect(messages.map((message) => message.ruleId)).toEqual(['import-x/no-restricted-paths']);
      expect(messages[0]!.message).toContain('Nothing imports the entry points');
    });

    it('as is a route or a lib module importing it', async () => {
      for (const file of ['apps/web/app/routes/planted.tsx', 'apps/web/app/lib/planted.ts']) {
        const messages = await plant(file, "import type { Layout } from '../root';\nexport type L = typeof Layout;\n");
        expect(messages).toHaveLength(1);
      }
    });

    it('the affiliate layout names the route handle from lib/ and passes', async () => {
      const results = await eslint.lintFiles([path.join(WEB, 'components/affiliate-layout.tsx')]);
      expect(results.flatMap((result) => result.messages)).toEqual([]);
    });
  });
});

describe("packages/shared's dependencies (ADR 022)", { timeout: 60_000 }, () => {
  it('refuses a library its package.json does not list', async () => {
    const [result] = await eslint.lintText("import { useState } from 'react';\nexport const s = useState;\n", {
      filePath: path.join(ROOT, 'packages/shared/src/site/planted.ts'),
    });
    expect(result?.messages.map((message) => message.ruleId)).toEqual(['import-x/no-extraneous-dependencies']);
  });

  it("reads the skin package's contract and trend rules, never the analysis", async () => {
    const file = 'packages/shared/src/studio/planted.ts';
    expect(
      await plant(file, "import type { MetricId } from '@skanova/skin/contract';\nexport type M = MetricId;\n"),
    ).toEqual([]);
    expect(
      await plant(file, "import { noiseFloor } from '@skanova/skin/trend';\nexport const n = noiseFloor;\n"),
    ).toEqual([]);
    const refused = await plant(file, "import * as analyse from '@skanova/skin/analyse';\nexport const a = analyse;\n");
    expect(refused.map((message) => message.ruleId)).toEqual(['import-x/no-restricted-paths']);
    expect(refused[0]!.message).toContain('ADR 022');
  });
});

describe('no barrel files (ADR 021)', { timeout: 60_000 }, () => {
  it('refuses export * from', async () => {
    const [result] = await eslint.lintText("export * from './format';\n", {
      filePath: path.join(WEB, 'lib/planted.ts'),
    });
    expect(result?.messages.map((message) => message.ruleId)).toEqual(['import-x/avoid-re-export-all']);
  });
});
