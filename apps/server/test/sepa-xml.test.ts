import { SEPA_PAIN_VERSIONS, type SepaPainVersion } from '@skanova/shared/payouts/schemas';
import { describe, expect, it } from 'vitest';
import { convertCents, decimalAmount, normaliseExchangeRate } from '../src/domain/money.ts';
import { type SepaDocumentInput, SepaDataError, buildSepaXml, sepaText } from '../src/features/payouts/sepa-xml.ts';
import { payoutIdFromTransferReference, transferReference } from '../src/features/payouts/transfer-reference.ts';
import { SEPA_NAMESPACE, parseXml, sepaTransactions, sepaValue, sepaViolations } from './fixtures/sepa-rules.ts';

// The SEPA credit transfer file (docs/product/money.md#payouts) against the rules of pain.001.001.09 and
// .03 and the EPC guidelines (fixtures/sepa-rules.ts: element order and occurrences, IBAN, BIC, text
// lengths and character set, amounts, dates, namespace, counts and control sums), and the checker
// itself against files that break each rule. The amounts and references the exports build on.

/** The XML without the indentation between elements. */
const compact = (xml: string) => xml.replace(/>\s+</g, '><');

function input(version: SepaPainVersion, overrides: Partial<SepaDocumentInput> = {}): SepaDocumentInput {
  return {
    version,
    messageId: 'PAYOUTS-20250615-SEPA-3FA9C01B7D',
    paymentInfoId: 'PAYOUTS-20250615-SEPA-3FA9C01B7D-1',
    createdAt: new Date('2025-06-15T09:30:12.345Z'),
    executionDate: '2025-06-16',
    debtor: { name: 'Société Générale d’Édition & Cie', iban: 'FR76 3000 6000 0112 3456 7890 189', bic: 'AGRIFRPPXXX' },
    transfers: [
      {
        endToEndId: transferReference('0b9e7d2c-3a41-4f5e-9c1d-2e3f4a5b6c7d'),
        amountCents: 184_62,
        creditorName: 'Zoë Ångström-Łukasz & Søren Müller',
        creditorIban: 'DE89370400440532013000',
        creditorBic: 'cobadeffxxx',
        remittance: 'Commissions d’affiliation — août 2025 ref 42',
      },
      {
        endToEndId: transferReference('ffffffff-ffff-4fff-bfff-ffffffffffff'),
        amountCents: 2_000_00,
        creditorName: 'Ｊｏｓé <Ünal> "the best" ™',
        creditorIban: 'NL91ABNA0417164300',
        creditorBic: null,
        remittance: `Affiliate commissions ${'x'.repeat(200)}`,
      },
      {
        endToEndId: 'E2E-3',
        amountCents: 1,
        creditorName: 'Ada Lovelace',
        creditorIban: 'BE68539007547034',
        creditorBic: 'GKCCBEBB',
        remittance: 'One cent',
      },
    ],
    ...overrides,
  };
}

describe.each(SEPA_PAIN_VERSIONS)('%s', (version) => {
  const xml = buildSepaXml(input(version));

  it('follows the schema and the EPC rules', () => {
    expect(sepaViolations(xml, version)).toEqual([]);
    expect(parseXml(xml)).toMatchObject({ name: 'Document', namespace: SEPA_NAMESPACE[version] });
  });

  it('counts and adds up the transactions at both levels', () => {
    expect(sepaValue(xml, 'NbOfTxs')).toBe('3');
    expect(sepaValue(xml, 'CtrlSum')).toBe('2184.63');
    expect(xml.match(/<CtrlSum>2184\.63<\/CtrlSum>/g)).toHaveLength(2);
    expect(xml.match(/<NbOfTxs>3<\/NbOfTxs>/g)).toHaveLength(2);
    expect(sepaValue(xml, 'MsgId')).toBe('PAYOUTS-20250615-SEPA-3FA9C01B7D');
    expect(sepaValue(xml, 'CreDtTm')).toBe('2025-06-15T09:30:12Z');
  });

  it('writes the version’s own forms of the BIC and the execution date', () => {
    if (version === 'pain.001.001.09') {
      expect(compact(xml)).toContain('<ReqdExctnDt><Dt>2025-06-16</Dt></ReqdExctnDt>');
      expect(xml).toContain('<BICFI>AGRIFRPPXXX</BICFI>');
      expect(xml).not.toContain('<BIC>');
    } else {
      expect(xml).toContain('<ReqdExctnDt>2025-06-16</ReqdExctnDt>');
      expect(xml).toContain('<BIC>AGRIFRPPXXX</BIC>');
      expect(xml).not.toContain('<BICFI>');
    }
  });

  it('reduces names and texts to the SEPA character set, within their lengths', () => {
    const transactions = sepaTransactions(xml, version);
    expect(transactions[0]).toEqual({
      endToEndId: transferReference('0b9e7d2c-3a41-4f5e-9c1d-2e3f4a5b6c7d'),
      amount: '184.62',
      bic: 'COBADEFFXXX',
      name: 'Zoe Angstrom-Lukasz + Soren Muller',
      iban: 'DE89370400440532013000',
      remittance: "Commissions d'affiliation - aout 2025 ref 42",
    });
    // Full-width letters are folded; symbols become '.'; no creditor agent without a BIC.
    expect(transactions[1]).toMatchObject({ amount: '2000.00', bic: null, name: 'Jose .Unal. .the best. TM' });
    expect(transactions[1]!.remittance).toHaveLength(140);
    expect(transactions[2]).toMatchObject({ amount: '0.01' });
    expect(sepaValue(xml, 'Nm')).toBe("Societe Generale d'Edition + Cie");
    // The debtor IBAN is written without its spaces.
    expect(xml).toContain('<IBAN>FR7630006000011234567890189</IBAN>');
  });

  it('names the debtor agent NOTPROVIDED without a configured BIC', () => {
    const withoutBic = buildSepaXml(
      input(version, { debtor: { name: 'Company', iban: 'FR7630006000011234567890189', bic: '' } }),
    );
    expect(sepaViolations(withoutBic, version)).toEqual([]);
    expect(compact(withoutBic)).toContain(
      '<DbtrAgt><FinInstnId><Othr><Id>NOTPROVIDED</Id></Othr></FinInstnId></DbtrAgt>',
    );
  });

  it('leaves out a creditor BIC the version cannot carry (the IBAN routes the transfer)', () => {
    const transfer = { ...input(version).transfers[0]!, creditorBic: '1234DEFF' };
    const file = buildSepaXml(input(version, { transfers: [transfer] }));
    expect(sepaViolations(file, version)).toEqual([]);
    expect(sepaTransactions(file, version)[0]!.bic).toBe(version === 'pain.001.001.09' ? '1234DEFF' : null);
  });

  it('refuses data the file cannot carry', () => {
    const transfer = input(version).transfers[0]!;
    const refused: Partial<SepaDocumentInput>[] = [
      { transfers: [] },
      { transfers: [{ ...transfer, amountCents: 0 }] },
      { transfers: [{ ...transfer, creditorIban: 'DE89 3704 0044 0532 0130 00 ÄÖ' }] },
      { debtor: { name: 'Company', iban: 'FR7630006000011234567890189', bic: 'AGRI' } },
      { transfers: [transfer, transfer] },
      { transfers: [{ ...transfer, endToEndId: 'x'.repeat(36) }] },
      { messageId: 'has space' },
      { debtor: { name: 'Company', iban: 'not an iban', bic: null } },
    ];
    for (const overrides of refused) expect(() => buildSepaXml(input(version, overrides))).toThrow(SepaDataError);
  });
});

describe('the rules checker', () => {
  const version = 'pain.001.001.09';
  const xml = buildSepaXml(input(version));
  const broken: [string, string, RegExp][] = [
    [
      'elements out of order',
      xml.replace(/(<Cdtr>[\s\S]*?<\/Cdtr>)(\s*)(<CdtrAcct>[\s\S]*?<\/CdtrAcct>)/, '$3$2$1'),
      /unexpected here|missing/,
    ],
    [
      'a wrong group control sum',
      xml.replace('<CtrlSum>2184.63</CtrlSum>', '<CtrlSum>2184.64</CtrlSum>'),
      /GrpHdr\/CtrlSum/,
    ],
    ['a wrong count', xml.replace('<NbOfTxs>3</NbOfTxs>', '<NbOfTxs>2</NbOfTxs>'), /NbOfTxs/],
    ['three decimals', xml.replace('>184.62<', '>184.625<'), /at most 2 decimals/],
    ['a zero amount', xml.replace('>0.01<', '>0.00<'), /below 0.01/],
    ['another currency', xml.replace('Ccy="EUR"', 'Ccy="USD"'), /Ccy/],
    ['a bad IBAN', xml.replace('DE89370400440532013000', 'de89370400440532013000'), /not an IBAN/],
    ['a bad BIC', xml.replace('COBADEFFXXX', 'COBAD1FFXXX'), /not a BIC/],
    ['a long name', xml.replace('<Nm>Ada Lovelace</Nm>', `<Nm>${'A'.repeat(71)}</Nm>`), /length 71/],
    ['a character outside the set', xml.replace('<Nm>Ada Lovelace</Nm>', '<Nm>Ada Lovélace</Nm>'), /SEPA set/],
    ['a bad date', xml.replace('<Dt>2025-06-16</Dt>', '<Dt>2025-02-30</Dt>'), /real day/],
    ['a bad time', xml.replace('2025-06-15T09:30:12Z', '2025-06-15 09:30:12'), /ISODateTime/],
    ['another namespace', xml.replace('pain.001.001.09"', 'pain.001.001.03"'), /namespace/],
    ['BIC instead of BICFI', xml.replace('<BICFI>AGRIFRPPXXX</BICFI>', '<BIC>AGRIFRPPXXX</BIC>'), /BIC/],
    ['an unescaped ampersand', xml.replace('<Nm>Ada Lovelace</Nm>', '<Nm>Ada & Lovelace</Nm>'), /not well-formed/],
    ['an unclosed element', xml.replace('</RmtInf>', ''), /not well-formed/],
    ['a missing creditor account', xml.replace(/<CdtrAcct>[\s\S]*?<\/CdtrAcct>/, ''), /CdtrAcct missing/],
  ];
  it.each(broken)('finds %s', (_label, file, expected) => {
    const violations = sepaViolations(file, version);
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.join('\n')).toMatch(expected);
  });
});

describe('SEPA text', () => {
  it('transliterates accents and special letters, and replaces what is left', () => {
    expect(sepaText('Ærøskøbing Straße — «Œuvre» №5 ½', 70)).toBe('AEroskobing Strasse - .OEuvre. No5 1.2');
    expect(sepaText('  tabs\tand\nlines  ', 70)).toBe('tabs and lines');
    expect(sepaText('日本', 70)).toBe('..');
    expect(sepaText('', 70)).toBe('.');
    expect(sepaText('abc def', 4)).toBe('abc');
  });
});

describe('money', () => {
  it('writes cents as decimals', () => {
    expect(decimalAmount(0)).toBe('0.00');
    expect(decimalAmount(5)).toBe('0.05');
    expect(decimalAmount(184_62)).toBe('184.62');
    expect(decimalAmount(999_999_999_99)).toBe('999999999.99');
    expect(() => decimalAmount(-1)).toThrow(RangeError);
    expect(() => decimalAmount(1.5)).toThrow(RangeError);
  });

  it('converts USD cents at the operator’s rate, exactly, rounding half up', () => {
    expect(normaliseExchangeRate('0.9231')).toBe('0.923100');
    expect(normaliseExchangeRate(' 1 ')).toBe('1.000000');
    expect(convertCents(2000, '0.9231')).toBe(1846);
    expect(convertCents(2500, '0.9231')).toBe(2308); // 2307.75
    expect(convertCents(2050, '0.5')).toBe(1025);
    expect(convertCents(1, '0.5')).toBe(1); // 0.5 rounds up
    expect(convertCents(3, '0.500001')).toBe(2); // 1.500003
    expect(convertCents(123_456_789_012, '1.999999')).toBe(246_913_454_567);
    for (const rate of ['0.4999', '2.000001', '9.231', '0,92', '-1', 'abc', '0.1234567', ''])
      expect(() => normaliseExchangeRate(rate)).toThrow(RangeError);
  });
});

describe('transfer references', () => {
  it('carry a payout id in 25 letters and digits, and lead back to it', () => {
    for (const id of [
      '00000000-0000-4000-8000-000000000000',
      '0b9e7d2c-3a41-4f5e-9c1d-2e3f4a5b6c7d',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
    ]) {
      const reference = transferReference(id);
      expect(reference).toMatch(/^[0-9A-Z]{25}$/);
      expect(payoutIdFromTransferReference(reference)).toBe(id);
    }
    expect(payoutIdFromTransferReference('not a reference!')).toBeNull();
    expect(payoutIdFromTransferReference('Z'.repeat(25))).toBeNull();
    expect(() => transferReference('nope')).toThrow();
  });
});
