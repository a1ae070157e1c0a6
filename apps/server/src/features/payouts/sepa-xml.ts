import { normaliseBankId } from '@skanova/shared/affiliate/bank';
import type { SepaPainVersion } from '@skanova/shared/payouts/schemas';
import { decimalAmount } from '../../domain/money.ts';

// SEPA credit transfer initiation (docs/product/money.md#payouts): ISO 20022 pain.001.001.09 (the EPC's
// current customer-to-bank guidelines) or the older pain.001.001.03, EUR only, one payment
// information block paid from the company's account, one transaction per payout. The two versions
// differ, for what is written here, in the namespace, the BIC element (BICFI in .09, BIC in .03)
// and the requested execution date (wrapped in <Dt> in .09).
//
// What the EPC guidelines add to the schema and is enforced here:
// - text in the SEPA character set (a–z A–Z 0–9 / - ? : ( ) . , ' + space): accents are
//   transliterated (é → e, ß → ss), anything else becomes a space or '.';
// - names at most 70 characters, remittance text at most 140, identifiers at most 35;
// - amounts 0.01 or more with two decimals; the control sums and counts match the transactions;
// - the debtor agent is the BIC, or "NOTPROVIDED" when the company has none configured; the creditor
//   agent is optional and written only with a BIC the version accepts.

export const SEPA_NAMESPACES: Record<SepaPainVersion, string> = {
  'pain.001.001.09': 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09',
  'pain.001.001.03': 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03',
};

/** Lengths of the ISO 20022 text types, as restricted by the EPC for names. */
export const SEPA_LIMITS = { identifier: 35, name: 70, remittance: 140 } as const;

export const IBAN_PATTERN = /^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$/;
/** BICFIDec2014Identifier (.09) and the older, stricter BICIdentifier (.03). */
export const BIC_PATTERNS: Record<SepaPainVersion, RegExp> = {
  'pain.001.001.09': /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/,
  'pain.001.001.03': /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/,
};
/** The SEPA (EPC) basic Latin character set. */
export const SEPA_TEXT_PATTERN = /^[A-Za-z0-9/\-?:().,'+ ]*$/;
/** Identifiers: the same set without spaces, neither starting nor ending with '/', no '//'. */
export const SEPA_IDENTIFIER_PATTERN = /^(?!\/)(?!.*\/\/)[A-Za-z0-9/\-?:().,'+]{1,35}(?<!\/)$/;

/** Letters that Unicode decomposition does not reduce to a Latin letter. */
const TRANSLITERATIONS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'TH',
  ı: 'i',
  '&': '+',
  '’': "'",
  '‘': "'",
  '‚': ',',
  '–': '-',
  '—': '-',
};

/** `value` in the SEPA character set, spaces collapsed, cut to `max` characters (never empty: '.'). */
export function sepaText(value: string, max: number): string {
  const latin = [...value]
    .map((char) => TRANSLITERATIONS[char] ?? char)
    .join('')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/\s/gu, ' ')
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, '.')
    .replace(/ {2,}/g, ' ')
    .trim();
  return latin.slice(0, max).trim() || '.';
}

function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export interface SepaDebtor {
  name: string;
  iban: string;
  /** Empty or null: the debtor agent is written as NOTPROVIDED. */
  bic: string | null;
}

export interface SepaTransfer {
  /** Max35Text identifier, unique in the file; given back by the banks (e.g. in a return). */
  endToEndId: string;
  /** EUR cents, at least 1. */
  amountCents: number;
  creditorName: string;
  creditorIban: string;
  creditorBic: string | null;
  remittance: string;
}

export interface SepaDocumentInput {
  version: SepaPainVersion;
  /** Unique message id (≤ 35). */
  messageId: string;
  /** Payment information id (≤ 35). */
  paymentInfoId: string;
  createdAt: Date;
  /** Requested execution date, YYYY-MM-DD. */
  executionDate: string;
  debtor: SepaDebtor;
  transfers: readonly SepaTransfer[];
}

export class SepaDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SepaDataError';
  }
}

function requireIdentifier(value: string, what: string): string {
  if (!SEPA_IDENTIFIER_PATTERN.test(value))
    throw new SepaDataError(`${what} "${value}" is not a SEPA identifier (35 characters of the SEPA set).`);
  return value;
}

function requireIban(value: string, what: string): string {
  const iban = normaliseBankId(value);
  if (!IBAN_PATTERN.test(iban)) throw new SepaDataError(`${what} is not an IBAN.`);
  return iban;
}

/** The debtor's BIC, or null when none is configured (the agent is then NOTPROVIDED). */
function debtorBic(version: SepaPainVersion, value: string | null): string | null {
  if (value === null || value.trim() === '') return null;
  const bic = normaliseBankId(value);
  if (!BIC_PATTERNS[version].test(bic))
    throw new SepaDataError(`The debtor BIC (PAYOUT_DEBTOR_BIC) is not a BIC ${version} accepts.`);
  return bic;
}

/**
 * The creditor's BIC, or null: the IBAN alone routes a SEPA transfer, so a BIC this version cannot
 * carry (.03 predates BICs with digits in the bank code) leaves the optional creditor agent out.
 */
function creditorBic(version: SepaPainVersion, value: string | null): string | null {
  const bic = value === null ? '' : normaliseBankId(value);
  return BIC_PATTERNS[version].test(bic) ? bic : null;
}

/** An XML element with text content (escaped), or with child lines (indented). */
function element(name: string, content: string | string[], attributes = ''): string[] {
  if (typeof content === 'string') return [`<${name}${attributes}>${escapeXml(content)}</${name}>`];
  return [`<${name}${attributes}>`, ...content.map((line) => `  ${line}`), `</${name}>`];
}

function agent(version: SepaPainVersion, bic: string | null): string[] {
  if (bic === null) return element('FinInstnId', element('Othr', element('Id', 'NOTPROVIDED')));
  return element('FinInstnId', element(version === 'pain.001.001.09' ? 'BICFI' : 'BIC', bic));
}

/** The pain.001 document (UTF-8 XML text). Throws a SepaDataError when data breaks a rule. */
export function buildSepaXml(input: SepaDocumentInput): string {
  const { version } = input;
  if (input.transfers.length === 0) throw new SepaDataError('A SEPA file needs at least one transfer.');
  const messageId = requireIdentifier(input.messageId, 'MsgId');
  const paymentInfoId = requireIdentifier(input.paymentInfoId, 'PmtInfId');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.executionDate))
    throw new SepaDataError(`execution date "${input.executionDate}" is not YYYY-MM-DD`);
  const debtorIban = requireIban(input.debtor.iban, 'The debtor account (PAYOUT_DEBTOR_IBAN)');
  const debtorName = sepaText(input.debtor.name, SEPA_LIMITS.name);

  const endToEndIds = new Set<string>();
  let controlCents = 0;
  const transactions = input.transfers.flatMap((transfer) => {
    const endToEndId = requireIdentifier(transfer.endToEndId, 'EndToEndId');
    if (endToEndIds.has(endToEndId)) throw new SepaDataError(`EndToEndId ${endToEndId} appears twice.`);
    endToEndIds.add(endToEndId);
    if (!Number.isSafeInteger(transfer.amountCents) || transfer.amountCents < 1) {
      throw new SepaDataError(`The transfer ${endToEndId} has no positive amount.`);
    }
    controlCents += transfer.amountCents;
    const bic = creditorBic(version, transfer.creditorBic);
    return element('CdtTrfTxInf', [
      ...element('PmtId', element('EndToEndId', endToEndId)),
      ...element('Amt', element('InstdAmt', decimalAmount(transfer.amountCents), ' Ccy="EUR"')),
      ...(bic === null ? [] : element('CdtrAgt', agent(version, bic))),
      ...element('Cdtr', element('Nm', sepaText(transfer.creditorName, SEPA_LIMITS.name))),
      ...element(
        'CdtrAcct',
        element('Id', element('IBAN', requireIban(transfer.creditorIban, `The IBAN of ${endToEndId}`))),
      ),
      ...element('RmtInf', element('Ustrd', sepaText(transfer.remittance, SEPA_LIMITS.remittance))),
    ]);
  });
  const count = String(input.transfers.length);
  const controlSum = decimalAmount(controlCents);
  // Seconds, in UTC: fractions of a second are to be agreed with the bank, so none are written.
  const createdAt = `${input.createdAt.toISOString().slice(0, 19)}Z`;

  const document = element(
    'Document',
    element('CstmrCdtTrfInitn', [
      ...element('GrpHdr', [
        ...element('MsgId', messageId),
        ...element('CreDtTm', createdAt),
        ...element('NbOfTxs', count),
        ...element('CtrlSum', controlSum),
        ...element('InitgPty', element('Nm', debtorName)),
      ]),
      ...element('PmtInf', [
        ...element('PmtInfId', paymentInfoId),
        ...element('PmtMtd', 'TRF'),
        ...element('NbOfTxs', count),
        ...element('CtrlSum', controlSum),
        ...element('PmtTpInf', element('SvcLvl', element('Cd', 'SEPA'))),
        ...(version === 'pain.001.001.09'
          ? element('ReqdExctnDt', element('Dt', input.executionDate))
          : element('ReqdExctnDt', input.executionDate)),
        ...element('Dbtr', element('Nm', debtorName)),
        ...element('DbtrAcct', element('Id', element('IBAN', debtorIban))),
        ...element('DbtrAgt', agent(version, debtorBic(version, input.debtor.bic))),
        ...element('ChrgBr', 'SLEV'),
        ...transactions,
      ]),
    ]),
    ` xmlns="${SEPA_NAMESPACES[version]}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`,
  );
  return ['<?xml version="1.0" encoding="UTF-8"?>', ...document, ''].join('\n');
}
