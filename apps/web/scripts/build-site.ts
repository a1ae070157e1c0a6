// `npm run build` (and so `npm start`): the site built once per language, then the steps after both
// (scripts/postbuild.ts, scripts/build-service-worker.ts). The framework's build lists every file it
// writes and every page it prerenders — about 600 lines for the two languages — which buried what a
// newcomer needs to read (README, "Quick start"). Each language's build runs at the `warn` log level
// and says one line when it is done; its warnings and errors are printed as they are, all of its
// output when it fails.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '@skanova/shared/site/constants';

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Lines that say nothing about our build. React Router 7 starts Vite servers of its own (to read its
 * configuration and to compile route modules) with an option Vite 8 deprecated; neither setting nor
 * log level of ours reaches them, and each start prints this line.
 */
const NOISE = [/^The `envFile` option is deprecated, please use `envDir: false` instead\.$/];

/** What a successful build's output still has to say: its lines without colours, blanks and known noise. */
export function worthReading(output: string): string[] {
  return (
    output
      // Colours and styles (ESC [ … m), so that the noise matches whatever the terminal.
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split(/\r?\n/)
      .filter((line) => line.trim() !== '' && !NOISE.some((noise) => noise.test(line.trim())))
  );
}

interface Run {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: WEB_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

async function buildLanguage(lang: string, reactRouter: string) {
  const started = Date.now();
  const { code, output } = await run(process.execPath, [reactRouter, 'build', '--logLevel', 'warn'], {
    ...process.env,
    SITE_LANG: lang,
  });
  if (code !== 0) {
    process.stderr.write(output);
    throw new Error(`The ${lang} build failed (exit code ${code}).`);
  }
  for (const line of worthReading(output)) console.log(line);
  console.log(`site: ${lang} built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

async function main() {
  // The package exports its manifest, not its command: the command is named in the manifest's `bin`.
  const manifest = createRequire(import.meta.url).resolve('@react-router/dev/package.json');
  const reactRouter = path.join(path.dirname(manifest), 'bin.js');
  // One language after the other: both write the shared Vite cache, and two cores are busy enough.
  for (const lang of LANGUAGES) await buildLanguage(lang, reactRouter);
  for (const step of ['scripts/postbuild.ts', 'scripts/build-service-worker.ts']) {
    const { code, output } = await run(process.execPath, ['--import', 'tsx', step], process.env);
    process.stdout.write(output);
    if (code !== 0) throw new Error(`${step} failed (exit code ${code}).`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
