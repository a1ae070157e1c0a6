// IBAN and BIC checks (docs/product/rules-and-constants.md#validation): the same functions run in the form and on the server.

/** Removes spaces (people copy IBANs in groups of four) and upper-cases. */
export function normaliseBankId(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** IBAN length without spaces (docs/product/rules-and-constants.md#validation: 15 to 34 characters). */
export const IBAN_LENGTH = { min: 15, max: 34 } as const;
/** BIC length without spaces (docs/product/rules-and-constants.md#validation: 8 or 11 characters). */
export const BIC_LENGTHS = [8, 11] as const;

export function hasValidIbanLength(iban: string): boolean {
  const value = normaliseBankId(iban);
  return value.length >= IBAN_LENGTH.min && value.length <= IBAN_LENGTH.max;
}

/** ISO 13616: country code, two check digits, then letters and digits whose mod-97 value is 1. */
export function hasValidIbanChecksum(iban: string): boolean {
  const value = normaliseBankId(iban);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(value)) return false;
  const rearranged = value.slice(4) + value.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** ISO 9362: bank (4 letters), country (2 letters), location (2), optional branch (3). */
export function isValidBic(bic: string): boolean {
  const value = normaliseBankId(bic);
  return (BIC_LENGTHS as readonly number[]).includes(value.length) && /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value);
}

/** What the dashboard shows of a stored IBAN: every character but the last 4 hidden, in groups of four. */
export function maskIban(iban: string): string {
  const value = normaliseBankId(iban);
  const hiddenGroups = Math.ceil(Math.max(0, value.length - 4) / 4);
  return `${'•••• '.repeat(hiddenGroups)}${value.slice(-4)}`;
}
