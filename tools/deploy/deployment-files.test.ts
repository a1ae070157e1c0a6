import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type YamlValue, YamlSubsetError, parseYamlSubset } from './yaml-subset.ts';

// The container files cannot be built or run here (no container engine, no registry access), so
// what can be checked without one is checked: compose.yaml parses and wires the app to PostgreSQL
// (healthy first) and to the mail catcher, with no secret written in it; the Dockerfile has two
// stages, copies only paths that exist, runs as a non-root user and checks /healthz; .dockerignore
// keeps dependencies, data and secrets out of the build context. docs/deployment.md says what was
// run by hand.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
type Mapping = { [key: string]: YamlValue };
const mapping = (value: YamlValue | undefined): Mapping => {
  expect(value !== null && typeof value === 'object' && !Array.isArray(value)).toBe(true);
  return value as Mapping;
};

/** Variables the configuration requires with DATABASE_URL (apps/server/src/config.ts). */
const REQUIRED_SECRETS = ['IP_HASH_SECRET', 'AUTH_SECRET', 'DATA_ENCRYPTION_KEY'];

describe('the YAML subset reader', () => {
  it('reads mappings, sequences, flow sequences, quoted and plain scalars, comments', () => {
    expect(
      parseYamlSubset(
        [
          '# a comment',
          'name: demo # trailing comment',
          'list:',
          '  - "127.0.0.1:3000:3000"',
          '  - data:/data',
          'same-indent:',
          '- one',
          'nested:',
          '  key: ${A:-b}',
          '  flow: ["CMD-SHELL", "pg_isready -U x"]',
          '  empty:',
          '  count: 5',
          '  on: true',
          "  quoted: 'it''s'",
          'items:',
          '  - name: a',
          '    value: 1',
          '  - name: b',
        ].join('\n'),
      ),
    ).toEqual({
      name: 'demo',
      list: ['127.0.0.1:3000:3000', 'data:/data'],
      'same-indent': ['one'],
      nested: {
        key: '${A:-b}',
        flow: ['CMD-SHELL', 'pg_isready -U x'],
        empty: null,
        count: 5,
        on: true,
        quoted: "it's",
      },
      items: [{ name: 'a', value: 1 }, { name: 'b' }],
    });
  });

  it('refuses what it does not read rather than guessing', () => {
    for (const source of ['a: |\n  text', 'a: &anchor 1', 'a: {b: 1}', 'a:\n\tb: 1', 'a: 1\na: 2', 'a: 1\n   b: 2']) {
      expect(() => parseYamlSubset(source), source).toThrow(YamlSubsetError);
    }
  });
});

describe('compose.yaml', () => {
  const compose = mapping(parseYamlSubset(read('compose.yaml')));
  const services = mapping(compose.services);

  it('runs the app, PostgreSQL and a mail catcher, the app once PostgreSQL is healthy', () => {
    expect(Object.keys(services).sort()).toEqual(['app', 'mailpit', 'postgres']);
    const app = mapping(services.app);
    expect(mapping(app.build)).toMatchObject({ context: '.', target: 'runtime' });
    expect(mapping(app.depends_on)).toEqual({
      postgres: { condition: 'service_healthy' },
      mailpit: { condition: 'service_started' },
    });
    const environment = mapping(app.environment);
    expect(environment.DATABASE_URL).toMatch(
      /^postgres:\/\/skanova:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/skanova$/,
    );
    expect(environment.SMTP_URL).toBe('${SMTP_URL:-smtp://mailpit:1025}');
    expect(app.ports).toEqual(['127.0.0.1:3000:3000']);
    expect(app.volumes).toEqual(['app-data:/data']);
    // Longer than the server's own shutdown grace (25 s by default).
    expect(Number(String(app.stop_grace_period).replace(/s$/, ''))).toBeGreaterThan(25);

    const postgres = mapping(services.postgres);
    expect(String(postgres.image)).toMatch(/^postgres:\d+/);
    expect(postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(mapping(postgres.healthcheck).test).toEqual(['CMD-SHELL', 'pg_isready -U skanova -d skanova']);
    expect(mapping(compose.volumes)).toEqual({ 'app-data': null, 'postgres-data': null });
    expect(String(mapping(services.mailpit).image)).toMatch(/^axllent\/mailpit:v\d/);
  });

  it('holds no secret: they come from .env, which git ignores, after the committed template', () => {
    const app = mapping(services.app);
    expect(app.env_file).toBe('.env');
    expect(read('.gitignore').split('\n')).toContain('.env');
    for (const service of Object.values(services)) {
      for (const [name, value] of Object.entries(mapping(service).environment ?? {})) {
        if (/PASSWORD|SECRET|KEY|TOKEN|AUTH/.test(name))
          expect(String(value), name).toMatch(/^\$\{[A-Z_]+(:[?-][^}]*)?\}$/);
      }
    }
    const template = read('compose.env.example');
    for (const name of [...REQUIRED_SECRETS, 'POSTGRES_PASSWORD', 'PUBLIC_URL', 'TRUST_PROXY']) {
      expect(template, name).toMatch(new RegExp(`^${name}=`, 'm'));
    }
    // The template's secrets are blank.
    for (const name of [...REQUIRED_SECRETS, 'POSTGRES_PASSWORD'])
      expect(template).toMatch(new RegExp(`^${name}=$`, 'm'));
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

  it('builds in one stage and runs the server from another, as a user other than root', () => {
    const stages = instructions.filter((line) => line.startsWith('FROM '));
    expect(stages).toEqual(['FROM ${NODE_IMAGE} AS build', 'FROM ${NODE_IMAGE} AS runtime']);
    const runtime = instructions.slice(instructions.indexOf('FROM ${NODE_IMAGE} AS runtime'));
    expect(runtime.find((line) => line.startsWith('RUN npm ci'))).toContain('--omit=dev');
    const user = runtime.filter((line) => line.startsWith('USER ')).at(-1);
    expect(user).toBe('USER node');
    expect(runtime.indexOf(user!)).toBeLessThan(runtime.findIndex((line) => line.startsWith('CMD ')));
    expect(runtime.find((line) => line.startsWith('CMD '))).toBe(
      'CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]',
    );
    expect(existsSync(path.join(ROOT, 'apps/server/src/main.ts'))).toBe(true);
  });

  it('copies only paths that exist, and the build output from the build stage', () => {
    for (const line of instructions.filter((entry) => entry.startsWith('COPY ') && !entry.includes('--from='))) {
      const sources = line.split(/\s+/).slice(1, -1);
      for (const source of sources.filter((entry) => entry !== '.')) {
        expect(existsSync(path.join(ROOT, source)), `${line}: ${source}`).toBe(true);
      }
    }
    expect(instructions).toContain('COPY --from=build /app/apps/web/build apps/web/build');
    // The build stage's `npm run build` writes exactly that folder (apps/server/src/app.ts serves it).
    expect(JSON.parse(read('package.json')).scripts.build).toBe('npm run build -w @skanova/web');
  });

  it('checks health on /healthz, counting only its own 200', () => {
    const healthcheck = instructions.find((line) => line.startsWith('HEALTHCHECK '));
    expect(healthcheck).toContain("/healthz', { redirect: 'manual' })");
    expect(healthcheck).toContain('r.status === 200 ? 0 : 1');
  });

  it('is built from a context without dependencies, data, builds or secrets', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    for (const entry of ['**/node_modules', '.git', '.env', 'data', 'backups', 'apps/web/build']) {
      expect(ignored, entry).toContain(entry);
    }
    expect(statSync(path.join(ROOT, '.dockerignore')).isFile()).toBe(true);
  });
});
