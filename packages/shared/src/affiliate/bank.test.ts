import { describe, expect, it } from 'vitest';
import { hasValidIbanChecksum, hasValidIbanLength, isValidBic, maskIban, normaliseBankId } from './bank.ts';

describe('IBAN and BIC checks (docs/product/rules-and-constants.md#validation)', () => {
  it('reads IBANs typed in groups, in any case', () => {
    expect(normaliseBankId(' fr76 3000 6000 0112 3456 7890 189 ')).toBe('FR7630006000011234567890189');
  });

  it('accepts 15 to 34 characters without spaces', () => {
    expect(hasValidIbanLength('NO9386011117947')).toBe(true); // 15, Norway
    expect(hasValidIbanLength('NO938601111794')).toBe(false);
    expect(hasValidIbanLength(`LC55HEMM${'0'.repeat(24)}`)).toBe(true); // 32
    expect(hasValidIbanLength(`XX00${'1'.repeat(31)}`)).toBe(false); // 35
  });

  it('checks the ISO 13616 mod-97 check digits', () => {
    expect(hasValidIbanChecksum('FR76 3000 6000 0112 3456 7890 189')).toBe(true);
    expect(hasValidIbanChecksum('DE89370400440532013000')).toBe(true);
    expect(hasValidIbanChecksum('GB82WEST12345698765432')).toBe(true);
    expect(hasValidIbanChecksum('FR7630006000011234567890188')).toBe(false); // one digit off
    expect(hasValidIbanChecksum('GB82WEST1234569876543Z')).toBe(false);
    expect(hasValidIbanChecksum('7630006000011234567890189FR')).toBe(false); // not country + digits first
  });

  it('accepts BICs of 8 or 11 characters in the ISO 9362 shape', () => {
    expect(isValidBic('BNPAFRPP')).toBe(true);
    expect(isValidBic('bnpa fr pp xxx')).toBe(true);
    expect(isValidBic('BNPAFRP')).toBe(false);
    expect(isValidBic('BNPAFRPPXX')).toBe(false);
    expect(isValidBic('1NPAFRPP')).toBe(false);
  });

  it('masks every character of an IBAN but the last four', () => {
    expect(maskIban('FR76 3000 6000 0112 3456 7890 189')).toBe('•••• •••• •••• •••• •••• •••• 0189');
    expect(maskIban('NO9386011117947')).toBe('•••• •••• •••• 7947');
    expect(maskIban('FR7630006000011234567890189')).not.toMatch(/3000|FR/);
  });
});
