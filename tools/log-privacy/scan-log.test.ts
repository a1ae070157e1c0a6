import { describe, expect, it } from 'vitest';
import { isIban, personalValuesInSources, scanLog } from './scan-log.ts';

// The scan the end-to-end run's teardown applies to the test servers' logs: it must find each kind
// of personal data (else the check could not fail), and leave alone what a clean log holds.

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ level: 30, time: 1767225600000, pid: 42, hostname: 'host', ...fields });

const CLEAN = [
  line({ msg: 'Server listening at http://127.0.0.1:3400' }),
  line({
    reqId: 'b3c1a8e2-0f6e-4b1c-9d2a-5e7f8a9b0c1d',
    req: { method: 'GET', url: '/ref/SUMMER2026?lang' },
    msg: 'incoming request',
  }),
  line({
    reqId: 'b3c1a8e2-0f6e-4b1c-9d2a-5e7f8a9b0c1d',
    res: { statusCode: 200 },
    responseTime: 3.2,
    msg: 'request completed',
  }),
  line({ reqId: 'r2-abcdefgh', req: { method: 'GET', url: '/assets/banner-300x250@2x.png' }, msg: 'incoming request' }),
  line({ job: 'retention', at: '2026-05-01T10:00:00.000Z', msg: 'job done' }),
  line({
    err: { message: 'invalid input syntax for type uuid: "[redacted]"', stack: 'at file.ts:12:5\n SELECT $1::uuid' },
    msg: 'query failed',
  }),
  line({ trackingId: 'Xk3_ab-FR76ZZ12', payday: '2026-05-15', version: 'v1.2.3.4', msg: 'payout run' }),
].join('\n');

describe('scanLog', () => {
  it('finds nothing in a clean log, and counts its request lines', () => {
    const scan = scanLog(`${CLEAN}\n`, { personalValues: ['Lovelace', 'Ada'] });
    expect(scan.findings).toEqual([]);
    expect(scan).toMatchObject({ lines: 7, requestLines: 2, requestLinesWithoutId: 0 });
  });

  it.each([
    ['an e-mail address', line({ msg: 'welcome sent to ada.lovelace@example.com' }), 'e-mail address'],
    ['an address with a port', line({ req: { remoteAddress: '203.0.113.9', remotePort: 51234 } }), 'IPv4 address'],
    ['a loopback client', line({ msg: 'from 127.0.0.1.' }), 'IPv4 address'],
    ['an IPv6 address', line({ ip: '2001:db8:85a3::8a2e:370:7334' }), 'IPv6 address'],
    ['a mapped IPv4 address', line({ ip: '::ffff:10.1.2.3' }), 'IPv4 address'],
    ['the IPv6 loopback', line({ ip: '::1' }), 'IPv6 address'],
    ['an IBAN in groups', line({ msg: 'paid to FR76 3000 6000 0112 3456 7890 189' }), 'IBAN'],
    ['an IBAN in one piece', line({ iban: 'DE89370400440532013000' }), 'IBAN'],
    ['a name the tests typed', line({ args: ['User Lovelace not found'] }), 'personal value'],
  ])('finds %s', (_label, text, kind) => {
    expect(scanLog(text, { personalValues: ['Lovelace'] }).findings.map((finding) => finding.kind)).toContain(kind);
  });

  it('names the line of each finding, and scans lines that are not JSON', () => {
    const scan = scanLog(`${CLEAN}\nTypeError: cannot read jeanne@example.org\n`);
    expect(scan.findings).toEqual([{ line: 8, kind: 'e-mail address', value: 'jeanne@example.org' }]);
  });

  it('counts request lines without a request id apart', () => {
    const scan = scanLog(line({ req: { method: 'GET', url: '/' }, msg: 'incoming request' }));
    expect(scan).toMatchObject({ requestLines: 0, requestLinesWithoutId: 1 });
  });

  it('matches personal values as whole words, case and all', () => {
    const text = line({ msg: 'Adam and adaptive Ada-style' });
    expect(scanLog(text, { personalValues: ['Ada'] }).findings).toEqual([
      { line: 1, kind: 'personal value', value: 'Ada' },
    ]);
    expect(scanLog(line({ msg: 'Adam, adaptive' }), { personalValues: ['Ada'] }).findings).toEqual([]);
  });
});

describe('isIban', () => {
  it('checks the length of the country and the check digits', () => {
    expect(isIban('FR7630006000011234567890189')).toBe(true);
    expect(isIban('FR7630006000011234567890188')).toBe(false);
    expect(isIban('FR763000600001123456789018')).toBe(false);
    expect(isIban('ZZ7630006000011234567890189')).toBe(false);
  });
});

describe('personalValuesInSources', () => {
  it('reads the names, companies and phones a test types, and the words of each name', () => {
    const source = [
      "const visitor = { name: 'Jeanne Dupont', email: 'jeanne@example.com' };",
      "await form.firstName.fill('Ana');",
      "await page.getByLabel(auth.fields.lastName, { exact: true }).fill('Audit');",
      "await payments.getByLabel(payment.fields.accountHolder).fill('Ada Lovelace');",
      'const affiliate = { firstName: `Opal${lang}`, lastName: "de La Tour-Dubois", companyName: \'Peau Claire\' };',
      "await form.phone.fill('+33 6 12 34 56 78');",
      "await page.getByRole('button', { name: 'Open the app' });",
      "await page.getByRole('link', { name: 'Google Play' });",
      'firstName: account.firstName,',
    ].join('\n');
    expect(personalValuesInSources([source])).toEqual(
      [
        '+33 6 12 34 56 78',
        'Ada',
        'Ada Lovelace',
        'Ana',
        'Audit',
        'Claire',
        'Dupont',
        'Jeanne',
        'Jeanne Dupont',
        'Lovelace',
        'Opal',
        'Peau',
        'Peau Claire',
        'Tour-Dubois',
        'de La Tour-Dubois',
        // A capitalised role name reads as a person's: a value too many costs nothing.
        'Google',
        'Google Play',
        'Play',
      ].sort(),
    );
  });
});
