import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { personalValuesInSources, scanLog } from '../tools/log-privacy/scan-log';
import { E2E_SERVER_PORTS } from '../playwright.config';
import { SEED_ACCOUNTS } from './helpers/seed-accounts';

// After every end-to-end run (Playwright's global teardown, the servers still up): the test
// servers' logs (`.e2e-data/<port>/server.log`, written beside their stdout) hold no personal data —
// no e-mail address, IP address or IBAN, and none of the names, companies and phone numbers the
// seed and the tests typed — and they did log the run's requests, each with its request id (an
// empty or missing log fails: the check cannot pass on nothing).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Findings listed in the error; the rest are counted. */
const SHOWN = 20;

/** Every TypeScript file of the end-to-end tests: specs, helpers, the seed. */
function e2eSources(): string[] {
  return readdirSync(path.join(ROOT, 'e2e'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'));
}

export default function checkServerLogs(): void {
  const personalValues = personalValuesInSources(e2eSources());
  // The seed's account proves the reading of the sources still finds what they type.
  if (!personalValues.includes(SEED_ACCOUNTS.disabled.firstName)) {
    throw new Error(
      `The server-log check found no names in the tests' sources (expected "${SEED_ACCOUNTS.disabled.firstName}").`,
    );
  }
  const problems: string[] = [];
  for (const port of E2E_SERVER_PORTS) {
    const file = path.join(ROOT, '.e2e-data', String(port), 'server.log');
    if (!existsSync(file)) {
      problems.push(`${file}: no server log (did the test server on port ${port} start?)`);
      continue;
    }
    const scan = scanLog(readFileSync(file, 'utf8'), { personalValues });
    if (scan.requestLines === 0) problems.push(`${file}: no request lines with a request id (${scan.lines} lines)`);
    if (scan.requestLinesWithoutId > 0)
      problems.push(`${file}: ${scan.requestLinesWithoutId} request lines without a request id`);
    for (const finding of scan.findings.slice(0, SHOWN)) {
      problems.push(`${file}:${finding.line}: ${finding.kind} "${finding.value}"`);
    }
    if (scan.findings.length > SHOWN) problems.push(`${file}: … and ${scan.findings.length - SHOWN} more findings`);
  }
  if (problems.length > 0) {
    throw new Error(`Personal data or missing request lines in the test servers' logs:\n${problems.join('\n')}`);
  }
}
